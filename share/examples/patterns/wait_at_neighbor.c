/* wait_at_neighbor: in a neighborhood collective a rank waits only for its in-neighbors.
 *
 * Six ranks form a ring as a distributed graph (MPI_Dist_graph_create_adjacent, neighbors
 * r-1 and r+1). Rank 0 works DELAY_US longer before each MPI_Neighbor_allgather, and again
 * before each MPI_Ineighbor_allgather, whose wait shows the same state at the MPI_Wait.
 * Expected: wait_at_neighbor on ranks 1 and 5 (rank 0's neighbors) with peer rank 0,
 * ITERATIONS x DELAY_US = 0.5 s at each line. From the second exchange on, ranks 2, 3 and 4
 * wait as well, for ranks 1 and 5 who waited for rank 0 (the delay travels one neighbor per
 * exchange): they never name rank 0, which is not their neighbor, as a peer. No all-to-all
 * pattern (wait_at_nxn, nxn_completion) applies.
 *
 *   mpirun -np 6 -x LD_PRELOAD=libcollwrap.so ./wait_at_neighbor
 *
 * @np 6
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
  if (size < 3) {
    fprintf(stderr, "wait_at_neighbor: run with at least 3 ranks (mpirun -np 6)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int neighbors[2] = {(rank + size - 1) % size, (rank + 1) % size}, weights[2] = {1, 1};
  MPI_Comm ring;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, neighbors, weights, 2, neighbors, weights,
                                 MPI_INFO_NULL, 0, &ring);
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  int mine = rank, theirs[2];
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 0) usleep(DELAY_US); /* the slow rank's extra work */
    MPI_Neighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, ring); /* @expect wait_at_neighbor rank=1,5 wait=0.5 peers=0 @not-peer 0 rank=2,3,4 @absent wait_at_nxn,nxn_completion rank=0,1,2,3,4,5 */
  }
  MPI_Request request;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 0) usleep(DELAY_US);
    MPI_Ineighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, ring, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE); /* @expect wait_at_neighbor rank=1,5 wait=0.5 peers=0 @not-peer 0 rank=2,3,4 @absent wait_at_nxn,nxn_completion rank=0,1,2,3,4,5 */
  }
  MPI_Comm_free(&ring);
  MPI_Finalize();
  return 0;
}
