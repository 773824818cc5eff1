/* imbalance_allreduce: one slow rank before an MPI_Allreduce.
 *
 * Every rank works WORK_US per round; rank 1 works DELAY_US longer. The other three ranks wait
 * in MPI_Allreduce. The root cause is rank 1's work before the MPI_Allreduce: short-term cost
 * 3 x ITERATIONS x DELAY_US = 3.0 s, gain ITERATIONS x DELAY_US = 1.0 s.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./imbalance_allreduce
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 5, WORK_US = 20000, DELAY_US = 200000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double local = rank, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    usleep(WORK_US);
    if (rank == 1) usleep(DELAY_US); /* the slow rank's extra work */
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* @cause rank=1 short=3.0 long=0 gain=1.0 */
  }
  MPI_Finalize();
  return 0;
}
