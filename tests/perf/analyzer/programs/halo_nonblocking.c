/* Nonblocking halo exchange on a 1-D periodic decomposition: per iteration each rank posts
 * MPI_Irecv and MPI_Isend to both neighbours and completes them with one MPI_Waitall; every
 * 32nd iteration an MPI_Allreduce checks convergence. About 18 trace events per iteration and
 * rank.
 * Usage: halo_nonblocking [ITERATIONS] (default 100000) */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long iterations = argc > 1 ? atol(argv[1]) : 100000;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double halo_out[2][16] = {{0}}, halo_in[2][16], residual = 1, global = 0;
  MPI_Request requests[4];
  for (long i = 0; i < iterations; ++i) {
    MPI_Irecv(halo_in[0], 16, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(halo_in[1], 16, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(halo_out[0], 16, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(halo_out[1], 16, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    if (i % 32 == 0) MPI_Allreduce(&residual, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
