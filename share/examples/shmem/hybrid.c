/* hybrid: an MPI + OpenSHMEM program, traced once with one clock from MPI_Init on.
 *
 * Each PE puts its number to the next PE, then all meet in shmem_barrier_all and MPI_Barrier.
 * Nothing waits for long: no significant finding is expected. With Open MPI 4.1,
 * shmem_finalize also finalizes MPI, so the program ends with it alone.
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 2 ./hybrid
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>

static long received;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  shmem_long_p(&received, me, (me + 1) % npes);
  shmem_barrier_all();
  MPI_Barrier(MPI_COMM_WORLD); /* @expect none */
  printf("hybrid: PE %d (MPI rank %d) received %ld\n", me, rank, received);
  shmem_finalize();
  return 0;
}
