/* pop_pcontrol: the region of interest is marked with MPI_Pcontrol(1) ... MPI_Pcontrol(0).
 * Inside it every rank does the same work before each MPI_Allreduce, so load balance is 1.
 * Outside it the last rank does a long setup (before MPI_Pcontrol(1)) and rank 0 a long
 * teardown (after MPI_Pcontrol(0)): measured from MPI_Init to MPI_Finalize the load balance
 * would be about 0.7, so these must not count.
 * @pop region=MPI_Pcontrol load_balance=1.0 serialization_efficiency=1.0
 * @pcontrol 1 0
 */
#include <mpi.h>
#include <unistd.h>

enum { ITERATIONS = 5, WORK_US = 100000, OUTSIDE_US = 800000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double local = 1, sum = 0;
  if (rank == size - 1) usleep(OUTSIDE_US);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Pcontrol(1);
  for (int i = 0; i < ITERATIONS; ++i) {
    usleep(WORK_US);
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Pcontrol(0);
  if (rank == 0) usleep(OUTSIDE_US);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
