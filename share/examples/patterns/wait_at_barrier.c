/* wait_at_barrier: everyone waits in MPI_Barrier for the last rank to arrive.
 *
 * Rank 3 works DELAY_US longer before each barrier (usleep stands for the work). Expected:
 * wait_at_barrier on ranks 0, 1 and 2 at the MPI_Barrier line, peer rank 3,
 * ITERATIONS x DELAY_US = 1.0 s each.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./wait_at_barrier
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    fprintf(stderr, "wait_at_barrier: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 3) usleep(DELAY_US); /* the slow rank's extra work */
    MPI_Barrier(MPI_COMM_WORLD); /* @expect wait_at_barrier rank=0,1,2 wait=1.0 */
  }
  MPI_Finalize();
  return 0;
}
