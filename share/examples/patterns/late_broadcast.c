/* late_broadcast: the non-root ranks wait in MPI_Bcast for a root that arrives late.
 *
 * The root, rank 0, works DELAY_US longer before each broadcast. Expected: late_broadcast on
 * ranks 1, 2 and 3 at the MPI_Bcast line, peer rank 0, ITERATIONS x DELAY_US = 1.0 s each.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./late_broadcast
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
    fprintf(stderr, "late_broadcast: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double value = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == ROOT) usleep(DELAY_US); /* the root's extra work */
    MPI_Bcast(&value, 1, MPI_DOUBLE, ROOT, MPI_COMM_WORLD); /* @expect late_broadcast rank=1,2,3 wait=1.0 */
  }
  MPI_Finalize();
  return 0;
}
