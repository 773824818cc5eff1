/* wait_at_neighbor on a Cartesian grid: a late rank delays only its grid neighbors.
 *
 * Six ranks form a 2 x 3 grid (MPI_Cart_create, not periodic) and exchange halos with
 * MPI_Neighbor_alltoall. Rank 4, at coordinates (1, 1), works DELAY_US longer before the
 * exchange. Its neighbors are ranks 1 (above it), 3 and 5 (left and right). Expected:
 * wait_at_neighbor on ranks 1, 3 and 5 with peer rank 4, DELAY_US = 0.5 s; ranks 0 and 2 are
 * not its neighbors and do not wait. (Repeated exchanges would pass the delay on to them, one
 * neighbor per exchange, as in wait_at_neighbor.c.)
 *
 *   mpirun -np 6 -x LD_PRELOAD=libcollwrap.so ./wait_at_neighbor_cart
 *
 * @np 6
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

enum { DELAY_US = 500000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 6) {
    fprintf(stderr, "wait_at_neighbor_cart: run with 6 ranks (mpirun -np 6)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int dims[2] = {2, 3}, periods[2] = {0, 0};
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int rank;
  MPI_Comm_rank(grid, &rank);
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  /* One value per neighbor slot: up, down, left, right (slots past the grid's edge unused). */
  double halo_out[4] = {rank, rank, rank, rank}, halo_in[4];
  if (rank == 4) usleep(DELAY_US); /* the slow rank's extra work */
  MPI_Neighbor_alltoall(halo_out, 1, MPI_DOUBLE, halo_in, 1, MPI_DOUBLE, grid); /* @expect wait_at_neighbor rank=1,3,5 wait=0.5 peers=4 @absent wait_at_neighbor,wait_at_nxn,nxn_completion rank=0,2,4 */
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
