/* pipeline_late_sender: a late sender whose wait propagates down a pipeline.
 *
 * Each of ITERATIONS rounds, every rank receives from the previous rank (rank 0 from nobody),
 * works WORK_US and sends to the next (the last rank to nobody). Rank 0 works DELAY_US longer.
 * Rank 1 waits for rank 0 (a late sender); ranks 2 and 3 then wait for ranks 1 and 2, which
 * only forward the delay. The root cause is rank 0's work before its MPI_Send: short-term cost
 * ITERATIONS x DELAY_US = 1.0 s (rank 1's waits), long-term cost about 2.0 s (ranks 2 and 3),
 * and cutting it to the other ranks' length ends the run about 1.0 s earlier.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./pipeline_late_sender
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 5, WORK_US = 20000, DELAY_US = 200000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int previous = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int next = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double value = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    MPI_Recv(&value, 1, MPI_DOUBLE, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    usleep(WORK_US);
    if (rank == 0) usleep(DELAY_US); /* the first rank's extra work */
    MPI_Send(&value, 1, MPI_DOUBLE, next, 0, MPI_COMM_WORLD); /* @cause rank=0 short=1.0 long=2.0 gain=1.0 */
  }
  MPI_Finalize();
  return 0;
}
