/* Nonblocking collectives posted together and completed by one MPI_Waitall, and one more
 * completed by polling with MPI_Test.
 *
 * Expected trace per rank: NonBlockingCollectiveRequest at each post with a fresh request id;
 * NonBlockingCollectiveComplete with the operation, communicator, root and bytes where the
 * request completes.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Request reqs[5];
  int config[6] = {0};
  if (rank == 0) for (int i = 0; i < 6; ++i) config[i] = i * i;
  double mine = rank, total = 0;
  int out[64], in[64], gathered[64];
  for (int i = 0; i < size; ++i) out[i] = rank * 10 + i;

  MPI_Ibarrier(MPI_COMM_WORLD, &reqs[0]); /* @site:ibarrier */
  MPI_Ibcast(config, 6, MPI_INT, 0, MPI_COMM_WORLD, &reqs[1]); /* @site:ibcast */
  MPI_Iallreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &reqs[2]); /* @site:iallreduce */
  MPI_Ialltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD, &reqs[3]); /* @site:ialltoall */
  MPI_Igather(&rank, 1, MPI_INT, gathered, 1, MPI_INT, 3 % size, MPI_COMM_WORLD, &reqs[4]); /* @site:igather */
  MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE); /* @site:waitall */

  /* An in-place reduction polled to completion. */
  long count = 1;
  MPI_Request poll;
  MPI_Iallreduce(MPI_IN_PLACE, &count, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &poll); /* @site:iallreduce_in_place */
  int done = 0;
  while (!done) MPI_Test(&poll, &done, MPI_STATUS_IGNORE); /* @site:test */

  if (rank == 0) printf("nonblocking collectives: %d ranks, total %.0f, count %ld, config[5] %d\n", size, total, count, config[5]);
  MPI_Finalize();
  return 0;
}
