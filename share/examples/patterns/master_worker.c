/* master_worker: rank 0 hands out work to the other ranks and takes their results as they
 * come; it prepares each round's work for DELAY_US (an overloaded master) and worker rank 1
 * computes DELAY_US longer than the others (a slow worker). The last worker's work items are
 * BIG_BYTES, the others' one number (unbalanced communication).
 *
 * Workers never exchange data, which makes rank 0 the master for the analyzer. Expected,
 * ROUNDS x DELAY_US = 1.0 s each: slow_workers on rank 0 at its receive of the results, peer
 * rank 1 (the other workers had delivered); overloaded_master on ranks 1-3 at their receive of
 * work, peer rank 0 (the time rank 0 spent waiting for rank 1 is not counted against it);
 * unbalanced_communication on rank 0 at its send of the work, for the pair 0 -> 3. Two analyzer
 * processes give the report of the analyzer alone, each holding half the trace (@job divided).
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./master_worker
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { ROUNDS = 5, DELAY_US = 200000, BIG_BYTES = 1 << 20 };

static void hand_out(char* work, int size) {
  usleep(DELAY_US); /* the master prepares the round's work */
  for (int w = 1; w < size; ++w) {
    const int bytes = w == size - 1 ? BIG_BYTES : 1;
    /* clang-format off */
    MPI_Send(work, bytes, MPI_CHAR, w, 0, MPI_COMM_WORLD); /* @expect unbalanced_communication rank=0 wait=any */
    /* clang-format on */
  }
}

static long collect(int size) {
  long sum = 0;
  for (int w = 1; w < size; ++w) {
    long result = 0;
    /* clang-format off */
    MPI_Recv(&result, 1, MPI_LONG, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect slow_workers rank=0 peers=1 wait=1.0 */
    /* clang-format on */
    sum += result;
  }
  return sum;
}

static void work_on(char* work, int rank, int size) {
  const int bytes = rank == size - 1 ? BIG_BYTES : 1;
  /* clang-format off */
  MPI_Recv(work, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect overloaded_master rank=1,2,3 peers=0 wait=1.0 */
  /* clang-format on */
  if (rank == 1) usleep(DELAY_US); /* the slow worker's extra work */
  const long result = 2L * work[0];
  MPI_Send(&result, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) {
    fprintf(stderr, "master_worker: run with at least 3 ranks (mpirun -np 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char* work = calloc(BIG_BYTES, 1);
  long total = 0;
  for (int round = 1; round <= ROUNDS; ++round) {
    work[0] = (char)round;
    if (rank == 0) {
      hand_out(work, size);
      total += collect(size);
    } else {
      work_on(work, rank, size);
    }
  }
  if (rank == 0) printf("master_worker: total %ld\n", total);
  free(work);
  MPI_Finalize();
  return 0;
}
