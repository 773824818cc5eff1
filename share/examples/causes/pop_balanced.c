/* pop_balanced: every rank does the same work between MPI_Allreduce calls.
 * POP efficiencies: all 1.0.
 * @pop load_balance=1.0 serialization_efficiency=1.0 parallel_efficiency=1.0
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 10, WORK_US = 200000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  double local = 1, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    usleep(WORK_US);
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
