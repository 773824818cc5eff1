/* Blocking collectives on MPI_COMM_WORLD, on sub-communicators from MPI_Comm_split, on an
 * intercommunicator between them and on a Cartesian topology, including MPI_IN_PLACE.
 *
 * Expected trace: MpiCollectiveBegin/End per call with the operation, the communicator, the
 * root (a rank within the communicator) and the bytes this rank sent and received; the
 * sub-communicators defined with members {0, 2} and {1, 3} (world ranks) and the same key on
 * both members; the intercommunicator with all four ranks.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Barrier(MPI_COMM_WORLD); /* @site:barrier */

  int params[10] = {0};
  if (rank == 0) for (int i = 0; i < 10; ++i) params[i] = i;
  MPI_Bcast(params, 10, MPI_INT, 0, MPI_COMM_WORLD); /* @site:bcast */

  /* The root reduces into its own buffer: MPI_IN_PLACE at the root only. */
  double partial[4] = {rank, rank, rank, rank}, sums[4];
  if (rank == 0) {
    MPI_Reduce(MPI_IN_PLACE, partial, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); /* @site:reduce_in_place */
  } else {
    MPI_Reduce(partial, sums, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); /* @site:reduce */
  }

  long local = rank + 1;
  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); /* @site:allreduce_in_place */

  int pair[2] = {rank, -rank}, gathered[64];
  MPI_Gather(pair, 2, MPI_INT, gathered, 2, MPI_INT, 1, MPI_COMM_WORLD); /* @site:gather */

  /* Rank 2 scatters i + 1 ints to rank i. */
  int counts[64], displs[64], pieces[256], piece[64];
  for (int i = 0; i < size; ++i) {
    counts[i] = i + 1;
    displs[i] = i * 16;
  }
  MPI_Scatterv(pieces, counts, displs, MPI_INT, piece, rank + 1, MPI_INT, 2, MPI_COMM_WORLD); /* @site:scatterv */

  MPI_Allgather(&rank, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD); /* @site:allgather */
  MPI_Alltoall(gathered, 1, MPI_INT, piece, 1, MPI_INT, MPI_COMM_WORLD); /* @site:alltoall */

  /* Even and odd ranks form two halves. */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half); /* @site:split */
  MPI_Comm_set_name(half, rank % 2 == 0 ? "even ranks" : "odd ranks");
  int half_rank;
  MPI_Comm_rank(half, &half_rank);
  long half_sum = rank;
  MPI_Allreduce(MPI_IN_PLACE, &half_sum, 1, MPI_LONG, MPI_SUM, half); /* @site:half_allreduce */
  MPI_Bcast(&half_sum, 1, MPI_LONG, 1, half); /* @site:half_bcast */

  /* The two halves talk through an intercommunicator: rank 0 of the even half broadcasts to
   * the odd half. */
  MPI_Comm between;
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 30, &between); /* @site:intercomm_create */
  int news = 0;
  const int root = rank % 2 == 1 ? 0 : (half_rank == 0 ? MPI_ROOT : MPI_PROC_NULL);
  if (rank == 0) news = 42;
  MPI_Bcast(&news, 1, MPI_INT, root, between); /* @site:inter_bcast */

  /* A non-periodic line of ranks: the ends have one neighbor only. */
  MPI_Comm line;
  const int dims[1] = {size}, periods[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line); /* @site:cart_create */
  int halo_out[2] = {rank, rank}, halo_in[2] = {-1, -1};
  MPI_Neighbor_alltoall(halo_out, 1, MPI_INT, halo_in, 1, MPI_INT, line); /* @site:neighbor_alltoall */

  MPI_Comm_free(&line);
  MPI_Comm_free(&between);
  MPI_Comm_free(&half);
  if (rank == 0) printf("collectives: %d ranks, sum %ld, params[9] %d, news %d\n", size, local, params[9], news);
  MPI_Finalize();
  return 0;
}
