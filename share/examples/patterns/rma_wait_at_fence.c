/* rma_wait_at_fence: processes wait in MPI_Win_fence for the last one to arrive.
 *
 * Three ranks share a window (MPI_Win_allocate); in each of ITERATIONS fence epochs every rank
 * puts its rank into its right neighbor's window, and rank 2 then works DELAY_US longer before
 * the closing MPI_Win_fence. Expected: rma_wait_at_fence on ranks 0 and 1 with peer rank 2,
 * ITERATIONS x DELAY_US = 0.5 s; the fence is no MPI_Barrier (no wait_at_barrier).
 *
 *   mpirun -np 3 -x LD_PRELOAD=libcollwrap.so ./rma_wait_at_fence
 *
 * Two analyzer processes give the report of the analyzer alone, each holding its share of
 * the trace (@job divided).
 * @np 3
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) {
    fprintf(stderr, "rma_wait_at_fence: run with at least 3 ranks (mpirun -np 3)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int* slot;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &slot, &win);
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  MPI_Win_fence(0, win);
  for (int i = 0; i < ITERATIONS; ++i) {
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    if (rank == 2) usleep(DELAY_US); /* the slow rank's extra work */
    MPI_Win_fence(0, win); /* @expect rma_wait_at_fence rank=0,1 wait=0.5 peers=2 @absent wait_at_barrier,barrier_completion rank=0,1,2 */
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
