/* gasp_harness: drives libcollwrap.so's GASP 1.5 entry points the way a GASP-instrumented UPC
 * program would, with real timing across real processes: one UPC thread per MPI process, the
 * UPC operations carried out with untraced PMPI calls between the Start and End notifications
 * that the GASP specification prescribes for each construct. No UPC compiler is packaged for
 * Debian 12; this stands in for one.
 *
 *   upc_barrier              thread 3 arrives DELAY_US late, ITERATIONS times
 *   upc_lock                 thread 0 holds the lock DELAY_US while the others queue
 *   upc_all_broadcast        the source thread 0 arrives DELAY_US late (UPC_IN_MYSYNC)
 *   upc_all_exchange         thread 2 arrives DELAY_US late (UPC_IN_ALLSYNC: waited on entry)
 *   upc_all_gather_all       thread 1 arrives DELAY_US late (UPC_IN_NOSYNC | UPC_OUT_ALLSYNC:
 *                            waited at the exit)
 *   upc_all_exchange         thread 3 arrives DELAY_US late (UPC_IN_MYSYNC: many-to-many entry)
 *   upc_all_permute          thread 0 arrives DELAY_US late (UPC_IN_NOSYNC | UPC_OUT_MYSYNC:
 *                            many-to-many exit)
 *   upc_all_gather           the contributor thread 2 arrives DELAY_US late at root 0
 *   upc_all_scatter          thread 1 stays DELAY_US after the others left (UPC_OUT_ALLSYNC)
 *   upc_notify/upc_wait      thread 3 notifies DELAY_US late; thread 1 works DELAY_US / 2
 *                            between its notify and its wait
 *   upc_all_alloc            thread 0 arrives DELAY_US late
 *   shared writes (upc_put)  COUNT single-word writes to the next thread
 *
 * The gasp_* functions are weak references: without libcollwrap.so preloaded the harness runs
 * untraced and prints the same lines.
 *
 * Two analyzer processes give the report of the analyzer alone, each holding its share of the
 * trace (@job divided).
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
       GASP_UPC_NOTIFY = 7, GASP_UPC_WAIT = 8, GASP_UPC_ALL_ALLOC = 13,
       GASP_UPC_ALL_BROADCAST = 36, GASP_UPC_ALL_SCATTER = 37, GASP_UPC_ALL_GATHER = 38,
       GASP_UPC_ALL_GATHER_ALL = 39, GASP_UPC_ALL_EXCHANGE = 40, GASP_UPC_ALL_PERMUTE = 41 };
/* upc_flag_t as GNU UPC 4 and Berkeley UPC define it (the collectives' reference values). */
enum { UPC_IN_ALLSYNC = 0, UPC_IN_NOSYNC = 1, UPC_IN_MYSYNC = 2,
       UPC_OUT_ALLSYNC = 0, UPC_OUT_NOSYNC = 4, UPC_OUT_MYSYNC = 8 };
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
    NOTIFY(GASP_UPC_ALL_BROADCAST, GASP_START, &threads[me], &threads[0], bytes, UPC_IN_MYSYNC | UPC_OUT_MYSYNC); /* @expect late_broadcast rank=1,2,3 peer=0 wait=0.6 */
    PMPI_Bcast(data, 8, MPI_LONG, 0, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_BROADCAST, GASP_END, &threads[me], &threads[0], bytes, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    for (int w = 0; w < 8; ++w) sum += data[w];
  }
  printf("gasp_harness: thread %d broadcast sum %ld\n", me, sum);
}

/* upc_all_exchange with UPC_IN_ALLSYNC: every thread waits on entry for the late thread 2. */
static void exchanges_synchronized_on_entry(int me, int size) {
  long mine[64], theirs[64];
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    for (int t = 0; t < size; ++t) mine[t] = me * 100 + t + i;
    if (me == 2) usleep(DELAY_US);
    const size_t bytes = sizeof(long);
    NOTIFY(GASP_UPC_ALL_EXCHANGE, GASP_START, &threads[me], &threads[me], bytes, UPC_IN_ALLSYNC | UPC_OUT_NOSYNC); /* @expect upc_sync_on_entry rank=0,1,3 peer=2 wait=0.6 @absent wait_at_nxn,upc_sync_on_exit rank=0,1,3 */
    PMPI_Alltoall(mine, 1, MPI_LONG, theirs, 1, MPI_LONG, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_EXCHANGE, GASP_END, &threads[me], &threads[me], bytes, UPC_IN_ALLSYNC | UPC_OUT_NOSYNC);
    for (int t = 0; t < size; ++t) sum += theirs[t];
  }
  printf("gasp_harness: thread %d exchange sum %ld\n", me, sum);
}

/* upc_all_gather_all with UPC_IN_NOSYNC | UPC_OUT_ALLSYNC: nobody waits on entry, every thread
 * waits at the exit for the late thread 1. */
static void gathers_synchronized_on_exit(int me, int size) {
  long all[64];
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    const long mine = me + i;
    if (me == 1) usleep(DELAY_US);
    const size_t bytes = sizeof mine;
    NOTIFY(GASP_UPC_ALL_GATHER_ALL, GASP_START, &threads[me], &threads[me], bytes, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC); /* @expect upc_sync_on_exit rank=0,2,3 peer=1 wait=0.6 @absent wait_at_nxn,upc_sync_on_entry rank=0,2,3 */
    PMPI_Allgather(&mine, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_GATHER_ALL, GASP_END, &threads[me], &threads[me], bytes, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
    for (int t = 0; t < size; ++t) sum += all[t];
  }
  printf("gasp_harness: thread %d gather_all sum %ld\n", me, sum);
}

/* upc_all_exchange with UPC_IN_MYSYNC: every thread reads from every other, so each waits on
 * entry for the late thread 3 (wait_at_nxn). */
static void exchanges_my_sync(int me, int size) {
  long mine[64], theirs[64];
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    for (int t = 0; t < size; ++t) mine[t] = me + t * i;
    if (me == 3) usleep(DELAY_US);
    const size_t bytes = sizeof(long);
    NOTIFY(GASP_UPC_ALL_EXCHANGE, GASP_START, &threads[me], &threads[me], bytes, UPC_IN_MYSYNC | UPC_OUT_NOSYNC); /* @expect wait_at_nxn rank=0,1,2 peer=3 wait=0.6 @absent upc_sync_on_entry,upc_sync_on_exit rank=0,1,2 */
    PMPI_Alltoall(mine, 1, MPI_LONG, theirs, 1, MPI_LONG, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_EXCHANGE, GASP_END, &threads[me], &threads[me], bytes, UPC_IN_MYSYNC | UPC_OUT_NOSYNC);
    for (int t = 0; t < size; ++t) sum += theirs[t];
  }
  printf("gasp_harness: thread %d exchange (mysync) sum %ld\n", me, sum);
}

/* upc_all_permute with UPC_IN_NOSYNC | UPC_OUT_MYSYNC: no entry wait, but a thread leaves only
 * when its data has been read, so all wait at the exit for the late thread 0. */
static void permutes_my_sync_on_exit(int me, int size) {
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    long mine = me * 10 + i, theirs = 0;
    if (me == 0) usleep(DELAY_US);
    const size_t bytes = sizeof mine;
    NOTIFY(GASP_UPC_ALL_PERMUTE, GASP_START, &threads[me], &threads[me], &threads[me], bytes, UPC_IN_NOSYNC | UPC_OUT_MYSYNC); /* @expect upc_sync_on_exit rank=1,2,3 peer=0 wait=0.6 @absent wait_at_nxn rank=1,2,3 */
    PMPI_Sendrecv(&mine, 1, MPI_LONG, (me + 1) % size, 7, &theirs, 1, MPI_LONG, (me + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    PMPI_Barrier(MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_PERMUTE, GASP_END, &threads[me], &threads[me], &threads[me], bytes, UPC_IN_NOSYNC | UPC_OUT_MYSYNC);
    sum += theirs;
  }
  printf("gasp_harness: thread %d permute sum %ld\n", me, sum);
}

/* upc_all_gather to thread 0 with UPC_IN_MYSYNC: the root enters before the late contributor
 * thread 2 and waits for it (many-to-one, early_reduce). */
static void early_gathers(int me, int size) {
  long all[64];
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    const long mine = me * i;
    if (me == 2) usleep(DELAY_US);
    const size_t bytes = sizeof mine;
    NOTIFY(GASP_UPC_ALL_GATHER, GASP_START, &threads[0], &threads[me], bytes, UPC_IN_MYSYNC | UPC_OUT_MYSYNC); /* @expect early_reduce rank=0 peer=2 wait=0.6 */
    PMPI_Gather(&mine, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_GATHER, GASP_END, &threads[0], &threads[me], bytes, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    if (me == 0)
      for (int t = 0; t < size; ++t) sum += all[t];
  }
  printf("gasp_harness: thread %d gather sum %ld\n", me, sum);
}

/* upc_all_scatter from thread 0 with UPC_OUT_ALLSYNC: thread 1 is held DELAY_US inside the
 * collective after the data movement, while the others have left. */
static void waits_inside_scatter(int me, int size) {
  long parts[64], mine = 0, sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    for (int t = 0; t < size; ++t) parts[t] = t + i;
    const size_t bytes = sizeof mine;
    NOTIFY(GASP_UPC_ALL_SCATTER, GASP_START, &threads[me], &threads[0], bytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); /* @expect upc_wait_inside_collective rank=1 wait=0.6 */
    PMPI_Scatter(parts, 1, MPI_LONG, &mine, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    PMPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) usleep(DELAY_US);
    NOTIFY(GASP_UPC_ALL_SCATTER, GASP_END, &threads[me], &threads[0], bytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    sum += mine;
    PMPI_Barrier(MPI_COMM_WORLD);
  }
  printf("gasp_harness: thread %d scatter sum %ld\n", me, sum);
}

/* upc_notify; work; upc_wait: thread 3 notifies late, so the others' upc_wait waits for it;
 * thread 1 overlaps half of that wait with work between its notify and its wait. */
static void split_phase_barriers(int me) {
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 3) usleep(DELAY_US);
    NOTIFY(GASP_UPC_NOTIFY, GASP_START, 0, 0);
    NOTIFY(GASP_UPC_NOTIFY, GASP_END, 0, 0);
    if (me == 1) usleep(DELAY_US / 2);
    NOTIFY(GASP_UPC_WAIT, GASP_START, 0, 0); /* @expect wait_at_barrier rank=0,2 peer=3 wait=0.6 */
    PMPI_Barrier(MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_WAIT, GASP_END, 0, 0);
  }
}

/* upc_all_alloc: thread 0 allocates and hands the pointer to all; it arrives late. */
static void all_allocs(int me) {
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 0) usleep(DELAY_US);
    const size_t nblocks = 4, nbytes = 64;
    NOTIFY(GASP_UPC_ALL_ALLOC, GASP_START, nblocks, nbytes); /* @expect upc_wait_at_all_alloc rank=1,2,3 peer=0 wait=0.6 */
    struct shared_ref* result = &threads[0];
    long address = me == 0 ? 4096 + i : 0; /* thread 0's allocation, handed to every thread */
    PMPI_Bcast(&address, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    NOTIFY(GASP_UPC_ALL_ALLOC, GASP_END, nblocks, nbytes, result);
  }
}

/* The remote write of a put, as a runtime would spend it: 2 µs, so that COUNT puts last well
   beyond the analyzer's --min-wait (10 µs) even when the puts' timestamps come quickly. */
static void remote_write(void) {
  const double until = MPI_Wtime() + 2e-6;
  while (MPI_Wtime() < until) {
  }
}

static void small_writes(int me, int size) {
  const int next = (me + 1) % size;
  long value = 0;
  for (int i = 0; i < COUNT; ++i) {
    const size_t bytes = sizeof value;
    NOTIFY(GASP_UPC_PUT, GASP_START, 1, &threads[next], &value, bytes); /* @expect frequent_small_communication rank=0,1,2,3 peer=next */
    value += i;
    remote_write();
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
  exchanges_synchronized_on_entry(me, size);
  gathers_synchronized_on_exit(me, size);
  exchanges_my_sync(me, size);
  permutes_my_sync_on_exit(me, size);
  early_gathers(me, size);
  waits_inside_scatter(me, size);
  split_phase_barriers(me);
  all_allocs(me);
  small_writes(me, size);
  MPI_Finalize();
  return 0;
}
/* clang-format on */
