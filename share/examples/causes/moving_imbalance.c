/* moving_imbalance: the slow rank changes every round.
 *
 * Every rank works WORK_US per round before an MPI_Allreduce; in round i, rank i mod 4 works
 * DELAY_US longer. Each rank's own extra work is the same in total, so no one rank is the
 * cause: cutting any one rank's segment to the others' mean gains nothing. The root cause is
 * the imbalance of that segment across ranks: short-term cost 3 x ITERATIONS x DELAY_US =
 * 2.4 s; balanced (each round at the ranks' mean, WORK_US + DELAY_US / 4), the run is
 * ITERATIONS x 3/4 x DELAY_US = 0.6 s shorter.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./moving_imbalance
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 8, WORK_US = 20000, DELAY_US = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  double local = rank, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    usleep(WORK_US);
    if (rank == i % size) usleep(DELAY_US); /* this round's slow rank */
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* @cause rank=any basis=ranks_mean short=2.4 long=0 gain=0.6 */
  }
  MPI_Finalize();
  return 0;
}
