/* late_sender: a receive waits for a send that starts late.
 *
 * In each of ITERATIONS rounds rank 1 works DELAY_US longer (usleep stands for the extra work)
 * before it sends; rank 0 is already blocked in MPI_Recv. Expected finding: late_sender on
 * rank 0 at the MPI_Recv line, peer rank 1, ITERATIONS x DELAY_US = 1.0 s of idle time.
 * Ranks 2 and 3 take no part. An argument replaces DELAY_US (microseconds): `./late_sender 0`
 * is the fixed program, whose comparison with the delayed one README's "Did my change help?"
 * shows.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./late_sender && analyzer collwrap-late_sender-*
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "late_sender: run with at least 2 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const useconds_t delay_us = argc > 1 ? (useconds_t)strtoul(argv[1], NULL, 10) : DELAY_US;
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  double value = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 1) {
      usleep(delay_us); /* the sender's extra work */
      MPI_Send(&value, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
      MPI_Recv(&value, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect late_sender rank=0 wait=1.0 */
    }
  }
  MPI_Finalize();
  return 0;
}
