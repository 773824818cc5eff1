/* sendrecv_candidate: two ranks exchange large messages with MPI_Send and MPI_Recv back to
 * back, so the two transfers run one after the other although the link could carry both.
 *
 * Ranks 0 and 1 (and 2 and 3) swap MESSAGE bytes ITERATIONS times: the lower rank sends then
 * receives, the higher one receives then sends. Expected: sendrecv_candidate on rank 0 at its
 * MPI_Send line (and on rank 2), peer rank 1; the reported time is what MPI_Sendrecv would
 * save, the shorter of the two transfers, so it depends on the machine: no fixed delay here.
 * Each iteration ends with a millisecond of other work, as loops do: without it, a receive and
 * the next iteration's send would follow each other as closely as a send and its receive, and
 * a rank losing its core between the two calls of one pair would shift the pairing by one call
 * for the rest of the loop.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./sendrecv_candidate
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { ITERATIONS = 10, MESSAGE = 8 << 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size % 2 != 0) {
    fprintf(stderr, "sendrecv_candidate: run with an even number of ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  char* out = calloc(MESSAGE, 1);
  char* in = calloc(MESSAGE, 1);
  const int peer = rank ^ 1;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank % 2 == 0) {
      MPI_Send(out, MESSAGE, MPI_CHAR, peer, 0, MPI_COMM_WORLD); /* @expect sendrecv_candidate rank=0,2 wait=any */
      MPI_Recv(in, MESSAGE, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in, MESSAGE, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out, MESSAGE, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
    }
    usleep(1000);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
