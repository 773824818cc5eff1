/* late_sender between threads that take turns: MPI_THREAD_SERIALIZED with two worker threads
 * per rank that call MPI one at a time, in turn, under a mutex (never two threads in MPI at
 * once, as SERIALIZED requires). Workers call MPI in the order worker 0, worker 1, worker 0, …
 * so worker t is thread t + 1 of its rank (the main thread, which called MPI_Init, is 0).
 *
 * On rank 0 worker 1 works DELAY_US during its turn before it sends; worker 0 sends at once.
 * Rank 1's workers receive in the same turns, worker t the messages of tag t. Expected:
 * late_sender on rank 1 thread 2 at its MPI_Recv, peer rank 0 thread 2 (the late thread, not
 * its on-time sibling), ITERATIONS x DELAY_US = 1.0 s; rank 1 thread 1 does not wait
 * significantly (rank 0's worker 0 sends as soon as the late send is done, which is when rank
 * 1's worker 0 gets its turn); and among the root causes, the compute of rank 0 thread 2 that
 * ends at its MPI_Send.
 *
 *   mpirun -np 2 -x LD_PRELOAD=libcollwrap.so ./late_sender_serialized
 *
 * @np 2
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

enum { THREADS = 2, ITERATIONS = 5, DELAY_US = 200000 };

static pthread_mutex_t mpi_turn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mpi_turn_changed = PTHREAD_COND_INITIALIZER;
static int mpi_turn; /* the worker whose MPI call is next */

struct work {
  int thread, rank;
};

static void* exchange(void* arg) {
  const struct work* w = arg;
  int value = w->thread;
  for (int i = 0; i < ITERATIONS; ++i) {
    pthread_mutex_lock(&mpi_turn_lock);
    while (mpi_turn != w->thread) pthread_cond_wait(&mpi_turn_changed, &mpi_turn_lock);
    if (w->rank == 0) {
      if (w->thread == 1) usleep(DELAY_US); /* the late thread's extra work */
      MPI_Send(&value, 1, MPI_INT, 1, w->thread, MPI_COMM_WORLD); /* @root-cause rank=0 thread=2 */
    } else {
      MPI_Recv(&value, 1, MPI_INT, 0, w->thread, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect late_sender rank=1 thread=2 wait=1.0 peers=0:2 @absent late_sender rank=1 thread=1 */
    }
    mpi_turn = (mpi_turn + 1) % THREADS;
    pthread_cond_broadcast(&mpi_turn_changed);
    pthread_mutex_unlock(&mpi_turn_lock);
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_SERIALIZED || size != 2) {
    fprintf(stderr, "late_sender_serialized: needs MPI_THREAD_SERIALIZED and 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */

  /* The main thread makes no MPI call while the workers run. */
  pthread_t threads[THREADS];
  struct work work[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    work[t] = (struct work){t, rank};
    pthread_create(&threads[t], NULL, exchange, &work[t]);
  }
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  MPI_Finalize();
  return 0;
}
