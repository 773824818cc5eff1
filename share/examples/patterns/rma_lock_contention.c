/* rma_lock_contention: an origin waits for an exclusive window lock another origin holds.
 *
 * In each of ITERATIONS rounds, rank 0 locks rank 2's window exclusively, puts into it and
 * holds the lock for DELAY_US; rank 1 asks for the same lock HEAD_START_US later. Expected:
 * lock_contention on rank 1 with the holder, rank 0, as peer: ITERATIONS x (DELAY_US −
 * HEAD_START_US) = 0.4 s, at the call where the MPI library makes it wait for the lock.
 *
 *   mpirun -np 3 -x LD_PRELOAD=libcollwrap.so ./rma_lock_contention
 *
 * Two analyzer processes give the report of the analyzer alone, each holding its share of
 * the trace (@job divided).
 * @np 3
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 100000, HEAD_START_US = 20000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) {
    fprintf(stderr, "rma_lock_contention: run with at least 3 ranks (mpirun -np 3)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int* slot;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &slot, &win);
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  for (int i = 0; i < ITERATIONS; ++i) {
    MPI_Barrier(MPI_COMM_WORLD); /* @startup: the previous round's lock order evens out here */
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
      MPI_Put(&rank, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
      usleep(DELAY_US); /* work while holding the lock */
      MPI_Win_unlock(2, win);
    } else if (rank == 1) {
      usleep(HEAD_START_US);
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win); /* @expect lock_contention rank=1 wait=0.4 peers=0 */
      MPI_Put(&rank, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
      MPI_Win_unlock(2, win);
    }
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
