/* early_reduce: the root waits in MPI_Reduce for the last sender to arrive.
 *
 * Rank 3 works DELAY_US longer before each reduction to rank 0. Expected: early_reduce on
 * rank 0 at the MPI_Reduce line, peer rank 3, ITERATIONS x DELAY_US = 1.0 s.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./early_reduce
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000, ROOT = 0 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    fprintf(stderr, "early_reduce: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double local = rank, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 3) usleep(DELAY_US); /* the slow sender's extra work */
    MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, ROOT, MPI_COMM_WORLD); /* @expect early_reduce rank=0 wait=1.0 */
  }
  MPI_Finalize();
  return 0;
}
