/* Tracer overhead per intercepted OpenSHMEM call: the same loop through the traced entry point
 * (shmem_long_p, shmem_putmem, shmem_barrier_all) and through the profiling interface
 * (pshmem_*), which the tracer never intercepts, in one run. Best block of BLOCKS; prints
 *   NAME_ns UNTRACED TRACED
 * per call on PE 0. Run with 2 PEs under oshrun (run_shmem_overhead.sh).
 *
 *   shmem_overhead [CALLS_PER_BLOCK]
 */
#include <pshmem.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BLOCKS = 7, PUT_BYTES = 1024 };

static long word;
static char block[PUT_BYTES];

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

typedef void (*loop_fn)(long calls, int peer);

static void long_p_traced(long calls, int peer) {
  for (long i = 0; i < calls; ++i) shmem_long_p(&word, i, peer);
  shmem_quiet();
}
static void long_p_untraced(long calls, int peer) {
  for (long i = 0; i < calls; ++i) pshmem_long_p(&word, i, peer);
  pshmem_quiet();
}
static void putmem_traced(long calls, int peer) {
  static char source[PUT_BYTES];
  for (long i = 0; i < calls; ++i) shmem_putmem(block, source, sizeof source, peer);
  shmem_quiet();
}
static void putmem_untraced(long calls, int peer) {
  static char source[PUT_BYTES];
  for (long i = 0; i < calls; ++i) pshmem_putmem(block, source, sizeof source, peer);
  pshmem_quiet();
}
static void barrier_traced(long calls, int peer) {
  (void)peer;
  for (long i = 0; i < calls; ++i) shmem_barrier_all();
}
static void barrier_untraced(long calls, int peer) {
  (void)peer;
  for (long i = 0; i < calls; ++i) pshmem_barrier_all();
}

/* Best ns per call over BLOCKS blocks; every PE runs the loop (the barrier needs all). */
static double best(loop_fn loop, long calls, int peer) {
  double result = 1e300;
  for (int b = 0; b < BLOCKS; ++b) {
    pshmem_barrier_all();
    const double start = now_ns();
    loop(calls, peer);
    const double per_call = (now_ns() - start) / calls;
    if (per_call < result) result = per_call;
  }
  return result;
}

int main(int argc, char** argv) {
  const long calls = argc > 1 ? atol(argv[1]) : 200000;
  shmem_init();
  const int me = shmem_my_pe(), peer = (me + 1) % shmem_n_pes();
  const struct {
    const char* name;
    loop_fn untraced, traced;
    long calls;
  } cases[] = {
      {"shmem_long_p", long_p_untraced, long_p_traced, calls},
      {"shmem_putmem_1KiB", putmem_untraced, putmem_traced, calls / 4 + 1},
      {"shmem_barrier_all", barrier_untraced, barrier_traced, calls / 20 + 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const double untraced = best(cases[i].untraced, cases[i].calls, peer);
    const double traced = best(cases[i].traced, cases[i].calls, peer);
    if (me == 0) printf("%s_ns %.1f %.1f\n", cases[i].name, untraced, traced);
  }
  shmem_finalize();
  return 0;
}
