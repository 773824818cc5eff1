/* callpath_imbalance: one MPI line reached from two phases, only one of them slow.
 *
 * Both phases of each round work WORK_US and then call exchange(), whose one MPI_Allreduce
 * line they share; in phase_b, rank 2 works DELAY_US longer. With one frame per call site the
 * two phases' segments end at the same line and cannot be told apart; traced with
 * COLLWRAP_CALLSITE_DEPTH=2, the root cause is the segment that reaches MPI_Allreduce through
 * phase_b's call, and the report gives that call as its call path. Short-term cost
 * 3 x ITERATIONS x DELAY_US = 3.0 s, gain ITERATIONS x DELAY_US = 1.0 s.
 *
 *   mpirun -np 4 -x COLLWRAP_CALLSITE_DEPTH=2 -x LD_PRELOAD=libcollwrap.so ./callpath_imbalance
 *
 * @env COLLWRAP_CALLSITE_DEPTH=2
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 5, WORK_US = 20000, DELAY_US = 200000 };

static double exchange(double local) {
  double sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* @cause rank=2 short=3.0 long=0 gain=1.0 */
  return sum;
}

static double phase_a(double value) {
  usleep(WORK_US);
  const double sum = exchange(value);
  return sum / 4;
}

static double phase_b(int rank, double value) {
  usleep(WORK_US);
  if (rank == 2) usleep(DELAY_US); /* the slow rank's extra work in this phase only */
  const double sum = exchange(value); /* @via */
  return sum / 4;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double value = rank;
  for (int i = 0; i < ITERATIONS; ++i) value = phase_b(rank, phase_a(value));
  MPI_Finalize();
  return 0;
}
