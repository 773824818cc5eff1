/* wait_at_nxn: everyone waits in an all-to-all collective for the last rank to join.
 *
 * Rank 1 works DELAY_US longer before each MPI_Allreduce, and again before each
 * MPI_Iallreduce, whose wait shows the same state at the MPI_Wait. Expected: wait_at_nxn on
 * ranks 0, 2 and 3 at the MPI_Allreduce line and at the MPI_Wait line, peer rank 1,
 * ITERATIONS x DELAY_US = 1.0 s each.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./wait_at_nxn
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    fprintf(stderr, "wait_at_nxn: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double local = rank, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 1) usleep(DELAY_US); /* the slow rank's extra work */
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* @expect wait_at_nxn rank=0,2,3 wait=1.0 */
  }
  MPI_Request request;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 1) usleep(DELAY_US);
    MPI_Iallreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE); /* @expect wait_at_nxn rank=0,2,3 wait=1.0 */
  }
  MPI_Finalize();
  return 0;
}
