/* rma_late_post: an origin's access epoch waits for the target to post its exposure epoch.
 *
 * Rank 0 (origin) puts into rank 1's window in ITERATIONS general-active-target epochs
 * (MPI_Win_start … MPI_Win_complete); rank 1 (target) works DELAY_US before each MPI_Win_post.
 * Expected: rma_late_post on rank 0 with peer rank 1, ITERATIONS x DELAY_US = 0.5 s, at the
 * call where the MPI library makes the origin wait for the post (Open MPI 4.1: MPI_Win_start;
 * others may start at once and wait in MPI_Win_complete).
 *
 *   mpirun -np 2 -x LD_PRELOAD=libcollwrap.so ./rma_late_post
 *
 * Two analyzer processes give the report of the analyzer alone, each holding its share of
 * the trace (@job divided).
 * @np 2
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
  if (size < 2) {
    fprintf(stderr, "rma_late_post: run with at least 2 ranks (mpirun -np 2)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int* slot;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &slot, &win);
  MPI_Group world, origin, target;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int zero = 0, one = 1;
  MPI_Group_incl(world, 1, &zero, &origin);
  MPI_Group_incl(world, 1, &one, &target);
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 0) {
      MPI_Win_start(target, 0, win); /* @expect rma_late_post rank=0 wait=0.5 peers=1 */
      MPI_Put(&i, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
      MPI_Win_complete(win);
    } else if (rank == 1) {
      usleep(DELAY_US); /* the target's work before it exposes its window */
      MPI_Win_post(origin, 0, win);
      MPI_Win_wait(win);
    }
  }
  MPI_Group_free(&origin);
  MPI_Group_free(&target);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
