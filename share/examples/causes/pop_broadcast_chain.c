/* pop_broadcast_chain: each round one rank works and then broadcasts its result; the others
 * need it before they can go on. The root moves round the ranks, so every rank does the same
 * work (load balance 1) but only one works at a time: serialization efficiency = 1/P = 0.25.
 * Each turn is 100 ms, so that scheduling delays of a busy machine stay well inside 5 %.
 * @pop load_balance=1.0 serialization_efficiency=0.25
 */
#include <mpi.h>
#include <unistd.h>

enum { ROUNDS_PER_RANK = 2, WORK_US = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double value = 0;
  for (int round = 0; round < ROUNDS_PER_RANK * size; ++round) {
    const int root = round % size;
    if (rank == root) usleep(WORK_US);
    MPI_Bcast(&value, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
