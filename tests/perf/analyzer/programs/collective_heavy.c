/* Collective-heavy loop, the shape of a spectral or particle code: per iteration an
 * MPI_Allreduce, an MPI_Bcast from a rotating root, an MPI_Alltoall and an MPI_Reduce; every
 * 8th iteration an MPI_Barrier. About 16.5 trace events per iteration and rank.
 * Usage: collective_heavy [ITERATIONS] (default 150000) */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long iterations = argc > 1 ? atol(argv[1]) : 150000;
  double value = rank, sum = 0, params[4] = {0};
  int* out = calloc((size_t)size, sizeof(int));
  int* in = calloc((size_t)size, sizeof(int));
  for (long i = 0; i < iterations; ++i) {
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(params, 4, MPI_DOUBLE, (int)(i % size), MPI_COMM_WORLD);
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Reduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (i % 8 == 0) MPI_Barrier(MPI_COMM_WORLD);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
