/* pop_double_work: rank 3 does twice the work of the others before each MPI_Allreduce.
 * Load balance = mean / max = (1 + 1 + 1 + 2) / 4 / 2 = 0.625 on 4 ranks; the other ranks'
 * waiting is all load imbalance, so serialization and transfer efficiency stay near 1.
 * @pop load_balance=0.625 serialization_efficiency=1.0 parallel_efficiency=0.625
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 10, WORK_US = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double local = 1, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    usleep(rank == size - 1 ? 2 * WORK_US : WORK_US);
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
