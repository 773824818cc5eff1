/* A program that ends in MPI_Abort: rank 0 aborts the job while the others wait for a
 * message that never comes.
 *
 * Expected: the job exits with the abort's error code 3; the events flushed before the abort
 * (on rank 0: MPI_Init, the send and the barrier) stay readable once collwrap-recover has
 * completed the archive.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int value = 7;
  if (rank == 0) {
    MPI_Send(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD); /* @site:send */
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:recv */
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @site:barrier */

  if (rank == 0) {
    printf("abort: rank 0 aborts\n");
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3); /* @site:abort */
  }
  MPI_Recv(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:never_matched */
  MPI_Finalize();
  return 0;
}
