/* Ring exchange with blocking point-to-point calls.
 *
 * Every rank passes a block of ints to its right neighbor: first with MPI_Send/MPI_Recv (even
 * ranks send first, odd ranks receive first, so the ring cannot deadlock), then with
 * MPI_Sendrecv, MPI_Sendrecv_replace and MPI_Ssend. A send to MPI_PROC_NULL moves nothing.
 *
 * Expected trace per rank: MpiSend to the right neighbor and MpiRecv from the left one with
 * the tags below and bytes = count x type size; no message record for the MPI_PROC_NULL send.
 * Lines marked @site are looked up by tests/integration/tracer.
 */
#include <mpi.h>
#include <stdio.h>

#define COUNT 16

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv); /* @site:init */
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;

  int token[COUNT], incoming[COUNT];
  for (int i = 0; i < COUNT; ++i) token[i] = rank * COUNT + i;

  /* Tag 1: blocking send and receive, ordered by parity. */
  if (rank % 2 == 0) {
    MPI_Send(token, COUNT, MPI_INT, right, 1, MPI_COMM_WORLD); /* @site:send */
    MPI_Recv(incoming, COUNT, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:recv */
  } else {
    MPI_Recv(incoming, COUNT, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:recv_odd */
    MPI_Send(token, COUNT, MPI_INT, right, 1, MPI_COMM_WORLD); /* @site:send_odd */
  }

  /* Tag 2: both directions in one call. */
  MPI_Sendrecv(token, COUNT, MPI_INT, right, 2, incoming, COUNT, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:sendrecv */

  /* Tag 3: the same buffer goes out and comes back in, as 8 doubles. */
  double values[8];
  for (int i = 0; i < 8; ++i) values[i] = rank + i / 10.0;
  MPI_Sendrecv_replace(values, 8, MPI_DOUBLE, right, 3, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:sendrecv_replace */

  /* Tag 4: a synchronous send; the receiver posts its receive right away. */
  if (rank == 0) {
    MPI_Ssend(token, 1, MPI_INT, 1, 4, MPI_COMM_WORLD); /* @site:ssend */
  } else if (rank == 1) {
    MPI_Recv(incoming, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:ssend_recv */
  }

  /* Nobody is there: no message record. */
  MPI_Send(token, COUNT, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD); /* @site:send_to_nobody */

  long checksum = incoming[0] + (long)values[0], total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ring: %d ranks, checksum %ld\n", size, total);
  MPI_Finalize(); /* @site:finalize */
  return 0;
}
