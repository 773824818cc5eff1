/* late_receiver: a send that needs its receiver waits because the receive is posted late.
 *
 * Rank 0 sends with MPI_Ssend (synchronous: it completes only once the receive has started);
 * rank 2 sends 1 MiB with MPI_Send, above Open MPI's eager limit, so it waits too (rendezvous).
 * Their receivers, ranks 1 and 3, work DELAY_US longer before receiving (usleep stands for the
 * work). Expected: late_receiver on rank 0 at the MPI_Ssend line and on rank 2 at the MPI_Send
 * line, ITERATIONS x DELAY_US = 1.0 s each. A small standard send would not wait: it is eager.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./late_receiver
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000, LARGE = 1 << 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    fprintf(stderr, "late_receiver: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  char* buffer = calloc(LARGE, 1);
  for (int i = 0; i < ITERATIONS; ++i) {
    switch (rank) {
      case 0:
        MPI_Ssend(buffer, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD); /* @expect late_receiver rank=0 wait=1.0 */
        break;
      case 2:
        MPI_Send(buffer, LARGE, MPI_CHAR, 3, 0, MPI_COMM_WORLD); /* @expect late_receiver rank=2 wait=1.0 */
        break;
      case 1:
      case 3:
        usleep(DELAY_US); /* the receiver's extra work */
        MPI_Recv(buffer, LARGE, MPI_CHAR, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    }
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
