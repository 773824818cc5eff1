/* balanced: every rank does the same work before each exchange, so no wait state is
 * significant. The control case of the pattern examples: the analyzer must not invent findings.
 *
 * Each of ITERATIONS rounds: equal work (WORK_US of usleep on every rank), an MPI_Allreduce,
 * a ring exchange with MPI_Sendrecv and an MPI_Barrier. @expect none
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./balanced
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 5, WORK_US = 50000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double local = rank, sum = 0, from_left = 0;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < ITERATIONS; ++i) {
    usleep(WORK_US); /* the same work on every rank */
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(&local, 1, MPI_DOUBLE, right, 0, &from_left, 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
