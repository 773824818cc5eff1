/* Persistent requests: one MPI_Send_init/MPI_Recv_init pair started three times.
 *
 * Expected trace per rank: nothing at the *_init calls; at every MPI_Startall one MpiIsend
 * (to the right neighbor, tag 7) and one MpiIrecvRequest, each with a fresh request id; at
 * every MPI_Waitall their completions. The requests live on until MPI_Request_free.
 */
#include <mpi.h>
#include <stdio.h>

#define COUNT 8
#define ROUNDS 3

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int out[COUNT], in[COUNT];

  MPI_Request reqs[2];
  MPI_Recv_init(in, COUNT, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[0]); /* @site:recv_init */
  MPI_Send_init(out, COUNT, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]); /* @site:send_init */

  long sum = 0;
  for (int round = 0; round < ROUNDS; ++round) {
    for (int i = 0; i < COUNT; ++i) out[i] = round * 100 + rank;
    MPI_Startall(2, reqs); /* @site:startall */
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); /* @site:waitall */
    sum += in[0];
  }

  /* One more round with MPI_Start and MPI_Wait on each request. */
  MPI_Start(&reqs[0]); /* @site:start_recv */
  MPI_Start(&reqs[1]); /* @site:start_send */
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE); /* @site:wait_send */
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE); /* @site:wait_recv */

  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);

  long total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("persistent: %d ranks, %d rounds, total %ld\n", size, ROUNDS, total);
  MPI_Finalize();
  return 0;
}
