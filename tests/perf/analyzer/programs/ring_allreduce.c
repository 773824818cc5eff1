/* Ring exchange with a periodic reduction, the shape of many iterative solvers: per iteration
 * each rank does an MPI_Sendrecv with each ring neighbour, and every 16th iteration an
 * MPI_Allreduce. About 8.25 trace events per iteration and rank.
 * Usage: ring_allreduce [ITERATIONS] (default 400000) */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long iterations = argc > 1 ? atol(argv[1]) : 400000;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double mine = rank, theirs = 0, sum = 0;
  for (long i = 0; i < iterations; ++i) {
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, right, 0, &theirs, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, left, 1, &theirs, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (i % 16 == 0) MPI_Allreduce(&theirs, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
