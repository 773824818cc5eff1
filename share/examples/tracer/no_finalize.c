/* A program that returns from main without calling MPI_Finalize (erroneous, but it happens).
 *
 * Expected: the program's output is unchanged; the events recorded before the exit stay
 * readable once collwrap-recover has completed the archive.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int token = rank;
  MPI_Sendrecv_replace(&token, 1, MPI_INT, (rank + 1) % size, 1, (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:sendrecv_replace */
  MPI_Barrier(MPI_COMM_WORLD); /* @site:barrier */
  if (rank == 0) printf("no_finalize: %d ranks, token %d\n", size, token);
  return 0;
}
