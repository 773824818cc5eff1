/* Nonblocking point-to-point: one MPI_Waitall over mixed sends and receives, then the other
 * completion functions (Waitany, Waitsome, Testall polling, Test) and a cancelled receive.
 *
 * Expected trace per rank: MpiIsend at each Isend and MpiIrecvRequest at each Irecv, each with
 * a fresh request id; the completions (MpiIsendComplete, MpiIrecv with the actual sender, tag
 * and size) where the request completes; MpiRequestCancelled for the cancelled receive.
 */
#include <mpi.h>
#include <stdio.h>

#define COUNT 32

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  double out[COUNT], from_left[COUNT], from_right[COUNT];
  for (int i = 0; i < COUNT; ++i) out[i] = rank + i;

  /* Halo exchange: two receives and two sends, completed together. Tag 10 goes right, tag 11
   * goes left. */
  MPI_Request halo[4];
  MPI_Irecv(from_left, COUNT, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &halo[0]); /* @site:irecv_left */
  MPI_Irecv(from_right, COUNT, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &halo[1]); /* @site:irecv_right */
  MPI_Isend(out, COUNT, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &halo[2]); /* @site:isend_right */
  MPI_Isend(out, COUNT, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &halo[3]); /* @site:isend_left */
  MPI_Waitall(4, halo, MPI_STATUSES_IGNORE); /* @site:waitall */

  /* Tag 20, completed one at a time in whatever order they finish. */
  MPI_Request pair[2];
  MPI_Irecv(from_left, 4, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(out, 4, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &pair[1]);
  for (int done = 0; done < 2; ++done) {
    int index;
    MPI_Waitany(2, pair, &index, MPI_STATUS_IGNORE); /* @site:waitany */
  }

  /* Tag 21: Waitsome until both are done. */
  MPI_Irecv(from_left, 2, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(out, 2, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &pair[1]);
  int completed = 0;
  while (completed < 2) {
    int outcount, indices[2];
    MPI_Waitsome(2, pair, &outcount, indices, MPI_STATUSES_IGNORE); /* @site:waitsome */
    completed += outcount;
  }

  /* Tag 22: polling with MPI_Testall (unsuccessful tests are recorded too). */
  MPI_Irecv(from_left, 1, MPI_DOUBLE, left, 22, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(out, 1, MPI_DOUBLE, right, 22, MPI_COMM_WORLD, &pair[1]);
  int flag = 0;
  while (!flag) MPI_Testall(2, pair, &flag, MPI_STATUSES_IGNORE); /* @site:testall */

  /* A receive nobody matches (tag 99), cancelled, then completed by MPI_Wait. */
  MPI_Request lonely;
  MPI_Status status;
  MPI_Irecv(from_left, 1, MPI_DOUBLE, left, 99, MPI_COMM_WORLD, &lonely); /* @site:irecv_cancelled */
  MPI_Cancel(&lonely);
  MPI_Wait(&lonely, &status); /* @site:wait_cancelled */
  int cancelled;
  MPI_Test_cancelled(&status, &cancelled);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("nonblocking: %d ranks, received %.1f, cancelled %d\n", size, from_left[0], cancelled);
  MPI_Finalize();
  return 0;
}
