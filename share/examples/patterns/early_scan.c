/* early_scan: ranks wait in MPI_Scan for a lower rank that arrives late.
 *
 * Rank 0 works DELAY_US longer before each prefix sum; every higher rank needs its value.
 * Expected: early_scan on ranks 1, 2 and 3 at the MPI_Scan line, peer rank 0,
 * ITERATIONS x DELAY_US = 1.0 s each.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./early_scan
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
    fprintf(stderr, "early_scan: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double local = rank, prefix = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 0) usleep(DELAY_US); /* the lowest rank's extra work */
    MPI_Scan(&local, &prefix, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* @expect early_scan rank=1,2,3 wait=1.0 */
  }
  MPI_Finalize();
  return 0;
}
