/* early_wait: MPI_Wait is called right after the nonblocking call, long before the data can
 * be there, so the time that could overlap computation is spent waiting.
 *
 * Receiver side: rank 0 posts MPI_Irecv and waits at once; rank 1 works DELAY_US before it
 * sends. Sender side: rank 2 starts an MPI_Issend (it needs the receiver) and waits at once;
 * rank 3 works DELAY_US before it receives. Expected: early_wait on rank 0 and on rank 2 at
 * their MPI_Wait lines, ITERATIONS x DELAY_US = 1.0 s each, with an estimated optimal distance
 * of about DELAY_US between the nonblocking call and the wait.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./early_wait
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
    fprintf(stderr, "early_wait: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double value = 0;
  MPI_Request request;
  for (int i = 0; i < ITERATIONS; ++i) {
    switch (rank) {
      case 0:
        MPI_Irecv(&value, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &request);
        /* independent work belongs here */
        MPI_Wait(&request, MPI_STATUS_IGNORE); /* @expect early_wait rank=0 wait=1.0 */
        break;
      case 1:
      case 3:
        usleep(DELAY_US); /* the peer's work */
        if (rank == 1)
          MPI_Send(&value, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        else
          MPI_Recv(&value, 1, MPI_DOUBLE, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
      case 2:
        MPI_Issend(&value, 1, MPI_DOUBLE, 3, 0, MPI_COMM_WORLD, &request);
        /* independent work belongs here */
        MPI_Wait(&request, MPI_STATUS_IGNORE); /* @expect early_wait rank=2 wait=1.0 */
        break;
    }
  }
  MPI_Finalize();
  return 0;
}
