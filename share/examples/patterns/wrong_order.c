/* wrong_order: a receive waits for a late message while earlier messages have already arrived.
 *
 * Same source: rank 1 sends tags 0 and 1 at once, works DELAY_US, then sends tag 2; rank 0
 * receives tag 2 first (and waits), then 1, then 0: the opposite of the send order.
 * Different source: rank 1 also sends one message to rank 3 at once; rank 2 works DELAY_US and
 * then sends to rank 3; rank 3 receives from rank 2 first (and waits), then from rank 1.
 * Expected: wrong_order at both first receives (rank 0 and rank 3), ITERATIONS x DELAY_US =
 * 1.0 s each. Receiving in send order (or with MPI_Waitany) handles what has already arrived
 * while the late message is on its way.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./wrong_order
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
    fprintf(stderr, "wrong_order: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double value[3] = {0, 0, 0};
  for (int i = 0; i < ITERATIONS; ++i) {
    switch (rank) {
      case 0: /* receives in the opposite order of sending */
        MPI_Recv(&value[2], 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect wrong_order rank=0 wait=1.0 */
        MPI_Recv(&value[1], 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&value[0], 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
      case 1:
        MPI_Send(&value[0], 1, MPI_DOUBLE, 3, 5, MPI_COMM_WORLD);
        MPI_Send(&value[0], 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&value[1], 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
        usleep(DELAY_US); /* work before the last message */
        MPI_Send(&value[2], 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
        break;
      case 2:
        usleep(DELAY_US); /* work before the message to rank 3 */
        MPI_Send(&value[0], 1, MPI_DOUBLE, 3, 5, MPI_COMM_WORLD);
        break;
      case 3: /* waits for rank 2 while rank 1's message is already there */
        MPI_Recv(&value[0], 1, MPI_DOUBLE, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect wrong_order rank=3 wait=1.0 */
        MPI_Recv(&value[1], 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    }
  }
  MPI_Finalize();
  return 0;
}
