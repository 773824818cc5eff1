/* MPI_THREAD_MULTIPLE with two threads per rank calling MPI at the same time.
 *
 * Thread t of each rank exchanges messages with thread t of its neighbors, tag t. Besides,
 * the main thread posts a receive and a send before starting the threads, and thread 1
 * completes them: a request may complete on another thread than the one that posted it.
 *
 * Expected trace: one location per calling thread; each thread's MpiSend/MpiRecv with its own
 * tag; the completion records of the main thread's requests on thread 1's location.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 2
#define ROUNDS 5
#define HANDOVER_TAG 100

struct work {
  int thread;
  int rank, left, right;
  MPI_Request* handed_over;  /* completed by thread 1 */
  long sum;
};

static void* exchange(void* arg) {
  struct work* w = arg;
  for (int round = 0; round < ROUNDS; ++round) {
    int out = w->rank * 1000 + w->thread * 100 + round, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, w->right, w->thread, &in, 1, MPI_INT, w->left, w->thread, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @site:thread_sendrecv */
    w->sum += in;
  }
  if (w->thread == 1) MPI_Waitall(2, w->handed_over, MPI_STATUSES_IGNORE); /* @site:handover_waitall */
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided); /* @site:init_thread */
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("threads: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;

  int handover_out = rank, handover_in = -1;
  MPI_Request handed_over[2];
  MPI_Irecv(&handover_in, 1, MPI_INT, left, HANDOVER_TAG, MPI_COMM_WORLD, &handed_over[0]); /* @site:handover_irecv */
  MPI_Isend(&handover_out, 1, MPI_INT, right, HANDOVER_TAG, MPI_COMM_WORLD, &handed_over[1]); /* @site:handover_isend */

  pthread_t threads[THREADS];
  struct work work[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    work[t] = (struct work){t, rank, left, right, handed_over, 0};
    pthread_create(&threads[t], NULL, exchange, &work[t]);
  }
  long sum = 0;
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(threads[t], NULL);
    sum += work[t].sum;
  }
  sum += handover_in; /* received once thread 1 has completed the requests */

  long total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("threads: %d ranks x %d threads, total %ld\n", size, THREADS, total);
  MPI_Finalize();
  return 0;
}
