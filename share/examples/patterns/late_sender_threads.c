/* late_sender between threads: MPI_THREAD_MULTIPLE with two threads per rank.
 *
 * Worker t (t = 0, 1) of rank 0 sends to worker t of rank 1 with tag t, ITERATIONS times.
 * The trace numbers each rank's threads in the order they first called MPI: the main thread
 * is thread 0, worker t thread t + 1. Worker 1 of rank 0 works DELAY_US longer before each
 * send; worker 0 is on time. MPI orders messages per communicator, sender, receiver and tag,
 * not per thread, and the tags keep the two workers' messages apart. Expected: late_sender on
 * rank 1 thread 2 at its MPI_Recv, peer rank 0 thread 2 (the late thread, not its on-time
 * sibling), ITERATIONS x DELAY_US = 1.0 s; rank 1 thread 1 does not wait significantly; and
 * among the root causes, the compute of rank 0 thread 2 that ends at its MPI_Send.
 *
 * Then the main thread of rank 1 posts an MPI_Irecv that worker 1 completes while rank 0's
 * main thread sends late: the wait is caused by a request another thread posted, and is
 * reported on the thread that waited (thread 2), at its MPI_Wait, with peer rank 0 thread 0
 * (the main thread, which sent).
 *
 *   mpirun -np 2 -x LD_PRELOAD=libcollwrap.so ./late_sender_threads
 *
 * @np 2
 */
#include <mpi.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

enum { THREADS = 2, ITERATIONS = 5, DELAY_US = 200000, HANDOVER_TAG = 100 };

struct work {
  int thread, rank;
  MPI_Request* handed_over; /* posted by the main thread, completed by worker 1 */
  sem_t* started;           /* posted once the worker has made its first MPI call */
};

static void* exchange(void* arg) {
  const struct work* w = arg;
  int value = w->thread, size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sem_post(w->started);
  for (int i = 0; i < ITERATIONS; ++i) {
    if (w->rank == 0) {
      if (w->thread == 1) usleep(DELAY_US); /* the late thread's extra work */
      MPI_Send(&value, 1, MPI_INT, 1, w->thread, MPI_COMM_WORLD); /* @root-cause rank=0 thread=2 */
    } else {
      MPI_Recv(&value, 1, MPI_INT, 0, w->thread, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @expect late_sender rank=1 thread=2 wait=1.0 peers=0:2 @absent late_sender rank=1 thread=1 */
    }
  }
  if (w->rank == 1 && w->thread == 1) {
    MPI_Wait(w->handed_over, MPI_STATUS_IGNORE); /* @expect late_sender rank=1 thread=2 wait=0.2 peers=0:0 */
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE || size != 2) {
    fprintf(stderr, "late_sender_threads: needs MPI_THREAD_MULTIPLE and 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* @startup: ranks leave MPI_Init at different times */
  int handover = rank;
  MPI_Request handed_over = MPI_REQUEST_NULL;
  if (rank == 1) MPI_Irecv(&handover, 1, MPI_INT, 0, HANDOVER_TAG, MPI_COMM_WORLD, &handed_over);

  /* Workers start one after the other, so that worker t is always thread t + 1. */
  pthread_t threads[THREADS];
  struct work work[THREADS];
  sem_t started;
  sem_init(&started, 0, 0);
  for (int t = 0; t < THREADS; ++t) {
    work[t] = (struct work){t, rank, &handed_over, &started};
    pthread_create(&threads[t], NULL, exchange, &work[t]);
    sem_wait(&started);
  }
  if (rank == 0) {
    usleep(ITERATIONS * DELAY_US + DELAY_US); /* sends after thread 1 of rank 1 waits */
    MPI_Send(&handover, 1, MPI_INT, 1, HANDOVER_TAG, MPI_COMM_WORLD);
  }
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  sem_destroy(&started);
  MPI_Finalize();
  return 0;
}
