/* gasp_harness: drives libcollwrap.so's GASP 1.5 entry points the way a GASP-instrumented UPC
 * program would, with real timing across real processes: one UPC thread per MPI process, the
 * UPC operations carried out with untraced PMPI calls between the Start and End notifications
 * that the GASP specification prescribes for each construct. No UPC compiler is packaged for
 * Debian 12; this stands in for one.
 *
 *   upc_barrier              thread 3 arrives DELAY_US late, ITERATIONS times
 *   upc_lock                 thread 0 holds the lock DELAY_US while the others queue
 *   upc_all_broadcast        the source thread 0 arrives DELAY_US late
 *   shared writes (upc_put)  COUNT single-word writes to the next thread
 *
 * The gasp_* functions are weak references: without libcollwrap.so preloaded the harness runs
 * untraced and prints the same lines.
 *
 *   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./gasp_harness
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

/* clang-format off: each expectation stays on the line of its notification */

enum { ITERATIONS = 3, DELAY_US = 200000, COUNT = 150 };

/* GASP 1.5 (gasp.h, gasp_upc.h as GNU UPC numbers the events). */
typedef enum { GASP_MODEL_UPC } gasp_model_t;
typedef enum { GASP_START, GASP_END, GASP_ATOMIC } gasp_evttype_t;
typedef struct _gasp_context_S* gasp_context_t;
enum { GASP_UPC_BARRIER = 9, GASP_UPC_LOCK = 19, GASP_UPC_UNLOCK = 21, GASP_UPC_PUT = 27,
       GASP_UPC_ALL_BROADCAST = 36 };
enum { UPC_IN_ALLSYNC = 0, UPC_OUT_ALLSYNC = 0 };
#pragma weak gasp_init
#pragma weak gasp_event_notify
#pragma weak gasp_control
#pragma weak collwrap_gasp_set_threadof
gasp_context_t gasp_init(gasp_model_t srcmodel, int* argc, char*** argv);
void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                       const char* filename, int linenum, int colnum, ...);
int gasp_control(gasp_context_t context, int on);
void collwrap_gasp_set_threadof(int (*threadof)(const void* pointer_to_shared));

/* A pointer-to-shared as this stand-in runtime represents it: the thread it points into. */
struct shared_ref {
  int thread;
};
static int threadof(const void* pointer_to_shared) {
  return ((const struct shared_ref*)pointer_to_shared)->thread;
}

static gasp_context_t context;
static struct shared_ref threads[64];
static long lock_object; /* the upc_lock_t, at the same place in every process */

#define NOTIFY(tag, type, ...) \
  (gasp_event_notify ? gasp_event_notify(context, tag, type, __FILE__, __LINE__, 0, __VA_ARGS__) \
                     : (void)0)

static void barriers(int me) {
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 3) usleep(DELAY_US);
    NOTIFY(GASP_UPC_BARRIER, GASP_START, 0, 0); /* @expect wait_at_barrier rank=0,1,2 peer=3 wait=0.6 */
    PMPI_Barrier(MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_BARRIER, GASP_END, 0, 0);
  }
}

/* Thread 0 takes the lock, everyone learns it, thread 0 works DELAY_US and passes the lock on:
 * the token message is the lock's hand-over, thread t + 1 gets it after thread t. */
static void locks(int me, int size) {
  int token = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 0) {
      NOTIFY(GASP_UPC_LOCK, GASP_START, &lock_object);
      NOTIFY(GASP_UPC_LOCK, GASP_END, &lock_object);
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
      usleep(DELAY_US);
    } else {
      NOTIFY(GASP_UPC_LOCK, GASP_START, &lock_object); /* @expect lock_contention rank=1,2,3 peer=0 wait=0.6 */
      PMPI_Recv(&token, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      NOTIFY(GASP_UPC_LOCK, GASP_END, &lock_object);
      ++token;
    }
    NOTIFY(GASP_UPC_UNLOCK, GASP_START, &lock_object);
    if (me + 1 < size) PMPI_Send(&token, 1, MPI_INT, me + 1, 0, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_UNLOCK, GASP_END, &lock_object);
    PMPI_Barrier(MPI_COMM_WORLD);
  }
  if (me == size - 1) printf("gasp_harness: lock passed %d times\n", token);
}

static void broadcasts(int me) {
  long data[8] = {0};
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 0) {
      usleep(DELAY_US);
      for (int w = 0; w < 8; ++w) data[w] = i + w;
    }
    const size_t bytes = sizeof data;
    NOTIFY(GASP_UPC_ALL_BROADCAST, GASP_START, &threads[me], &threads[0], bytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); /* @expect late_broadcast rank=1,2,3 peer=0 wait=0.6 */
    PMPI_Bcast(data, 8, MPI_LONG, 0, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_BROADCAST, GASP_END, &threads[me], &threads[0], bytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int w = 0; w < 8; ++w) sum += data[w];
  }
  printf("gasp_harness: thread %d broadcast sum %ld\n", me, sum);
}

static void small_writes(int me, int size) {
  const int next = (me + 1) % size;
  long value = 0;
  for (int i = 0; i < COUNT; ++i) {
    const size_t bytes = sizeof value;
    NOTIFY(GASP_UPC_PUT, GASP_START, 1, &threads[next], &value, bytes); /* @expect frequent_small_communication rank=0,1,2,3 peer=next */
    value += i;
    NOTIFY(GASP_UPC_PUT, GASP_END, 1, &threads[next], &value, bytes);
  }
  printf("gasp_harness: thread %d wrote %d words\n", me, COUNT);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    fprintf(stderr, "gasp_harness: run with 4 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int t = 0; t < size; ++t) threads[t].thread = t;
  if (gasp_init) context = gasp_init(GASP_MODEL_UPC, &argc, &argv);
  if (collwrap_gasp_set_threadof) collwrap_gasp_set_threadof(threadof);
  PMPI_Barrier(MPI_COMM_WORLD);
  barriers(me);
  locks(me, size);
  broadcasts(me);
  small_writes(me, size);
  MPI_Finalize();
  return 0;
}
/* clang-format on */
