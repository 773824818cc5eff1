/* barrier_completion: a rank stays in MPI_Barrier long after the others have left it.
 *
 * That happens when a rank loses its CPU inside the barrier (system noise, oversubscription).
 * Here rank 3 enters the barrier first; a timer interrupts it there after TIMER_US and its
 * signal handler sleeps NOISE_US (the noise). The others arrive after ARRIVAL_US and, with
 * Open MPI's linear barrier (selected below), leave at once; rank 3 leaves only after the
 * noise, TIMER_US + NOISE_US - ARRIVAL_US = 150 ms after them. Expected: barrier_completion on
 * rank 3 at the second MPI_Barrier line, ITERATIONS x 150 ms = 0.75 s. The first barrier only
 * lines the ranks up.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./barrier_completion
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "injected_noise.h"

enum { ITERATIONS = 5, ARRIVAL_US = 100000, TIMER_US = 50000, NOISE_US = 200000 };

int main(int argc, char** argv) {
  /* Open MPI's linear barrier releases every rank from rank 0, so the others need nothing
   * more from the interrupted rank once it has arrived. */
  setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 1);
  setenv("OMPI_MCA_coll_tuned_barrier_algorithm", "1", 1);
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    fprintf(stderr, "barrier_completion: run with 4 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  install_noise(NOISE_US);
  for (int i = 0; i < ITERATIONS; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3)
      interrupt_after(TIMER_US);
    else
      usleep(ARRIVAL_US); /* the others' work */
    MPI_Barrier(MPI_COMM_WORLD); /* @expect barrier_completion rank=3 wait=0.75 */
  }
  MPI_Finalize();
  return 0;
}
