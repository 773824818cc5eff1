/* pop_serialized_ring: a token goes round the ranks; each works only while it holds it.
 * Every rank does the same work (load balance 1), but only one works at a time, even on an
 * ideal network: serialization efficiency = 1/P = 0.25 on 4 ranks.
 * @pop load_balance=1.0 serialization_efficiency=0.25
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 5, WORK_US = 50000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int previous = (rank + size - 1) % size, next = (rank + 1) % size;
  double token = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank != 0 || i > 0)
      MPI_Recv(&token, 1, MPI_DOUBLE, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    usleep(WORK_US);
    if (rank != size - 1 || i + 1 < ITERATIONS)
      MPI_Send(&token, 1, MPI_DOUBLE, next, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
