/* Receives with MPI_ANY_SOURCE and MPI_ANY_TAG whose statuses the program ignores.
 *
 * In each of four rounds, every rank r > 0 sends r + 1 ints with tag 100 + r to rank 0; rank 0
 * takes them with blocking receives, nonblocking receives, a matched probe with MPI_Mrecv and a
 * nonblocking matched probe with MPI_Imrecv, always passing MPI_STATUS(ES)_IGNORE. A barrier
 * ends each round, so every round gets exactly one message from each sender.
 *
 * Expected trace on rank 0: every MpiRecv/MpiIrecv names the actual sender, the tag 100 +
 * sender and (sender + 1) x 4 bytes, although the program never looked at a status.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 4

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buffer[64] = {0};
  long received = 0;

  if (rank != 0) {
    for (int i = 0; i <= rank; ++i) buffer[i] = rank;
    for (int round = 0; round < ROUNDS; ++round) {
      MPI_Send(buffer, rank + 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD); /* @site:send */
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else {
    /* Round 1: blocking receives from whoever comes first. */
    for (int n = 1; n < size; ++n) {
      MPI_Recv(buffer, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:recv_any */
      received += buffer[0];
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Round 2: nonblocking receives completed together. */
    MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)size);
    int* bufs = malloc(sizeof(int) * 64 * (size_t)size);
    for (int n = 1; n < size; ++n) {
      MPI_Irecv(bufs + 64 * n, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[n - 1]); /* @site:irecv_any */
    }
    MPI_Waitall(size - 1, reqs, MPI_STATUSES_IGNORE); /* @site:waitall_any */
    for (int n = 1; n < size; ++n) received += bufs[64 * n];
    MPI_Barrier(MPI_COMM_WORLD);

    /* Round 3: matched probe, then receive exactly that message. */
    for (int n = 1; n < size; ++n) {
      MPI_Message message;
      MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE); /* @site:mprobe */
      MPI_Mrecv(buffer, 64, MPI_INT, &message, MPI_STATUS_IGNORE); /* @site:mrecv */
      received += buffer[0];
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Round 4: nonblocking matched probe and receive. */
    for (int n = 1; n < size; ++n) {
      MPI_Message message;
      int found = 0;
      while (!found) MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &found, &message, MPI_STATUS_IGNORE); /* @site:improbe */
      MPI_Request req;
      MPI_Imrecv(buffer, 64, MPI_INT, &message, &req); /* @site:imrecv */
      MPI_Wait(&req, MPI_STATUS_IGNORE); /* @site:wait_imrecv */
      received += buffer[0];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(bufs);
    free(reqs);
  }

  if (rank == 0) printf("wildcards: %d ranks, received %ld\n", size, received);
  MPI_Finalize();
  return 0;
}
