/* master_worker: PE 0 hands out work to the other PEs and collects their results; it prepares
 * each round's work for DELAY_US (an overloaded master) and worker PE 1 computes DELAY_US longer
 * than the others (a slow worker).
 *
 * Each round the master puts a work item and a flag to every worker; a worker waits for its
 * flag, computes, puts its result and a flag back to the master, which waits for the workers'
 * flags in order. Workers never exchange data, which makes PE 0 the master for the analyzer.
 * Expected, ROUNDS x DELAY_US = 1.0 s each: slow_workers on PE 0 at its wait for the workers'
 * flags, peer PE 1 (the others had delivered); overloaded_master on PEs 1, 2 and 3 at their
 * wait for work, peer PE 0 (the time PE 0 spent waiting for PE 1 is not counted against it).
 * Two analyzer processes give the report of the analyzer alone, each holding its share of
 * the trace (@job divided).
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 4 ./master_worker
 */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

enum { ROUNDS = 5, DELAY_US = 200000, MAX_PES = 64 };

static long work, work_round;                      /* on the workers */
static long results[MAX_PES], done_round[MAX_PES]; /* on the master */

static void hand_out(int round, int npes) {
  usleep(DELAY_US); /* the master prepares the round's work */
  for (int pe = 1; pe < npes; ++pe) {
    shmem_long_p(&work, 100L * round + pe, pe);
    shmem_fence();
    shmem_long_p(&work_round, round, pe);
  }
}

static long collect(int round, int npes) {
  long sum = 0;
  for (int pe = 1; pe < npes; ++pe) {
    /* The expectation stays on the line of the call. */
    /* clang-format off */
    shmem_long_wait_until(&done_round[pe], SHMEM_CMP_GE, round); /* @expect slow_workers rank=0 peer=1 wait=1.0 */
    /* clang-format on */
    sum += results[pe];
  }
  return sum;
}

static void work_on(int round, int me) {
  /* clang-format off */
  shmem_long_wait_until(&work_round, SHMEM_CMP_GE, round); /* @expect overloaded_master rank=1,2,3 peer=0 wait=1.0 */
  /* clang-format on */
  if (me == 1) usleep(DELAY_US); /* the slow worker's extra work */
  shmem_long_p(&results[me], 2 * work, 0);
  shmem_fence();
  shmem_long_p(&done_round[me], round, 0);
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 3 || npes > MAX_PES) {
    fprintf(stderr, "master_worker: run with 3 to %d PEs (oshrun -np 4)\n", MAX_PES);
    shmem_global_exit(2);
  }
  long total = 0;
  for (int round = 1; round <= ROUNDS; ++round) {
    if (me == 0) {
      hand_out(round, npes);
      total += collect(round, npes);
    } else {
      work_on(round, me);
    }
  }
  shmem_barrier_all();
  if (me == 0) printf("master_worker: total %ld\n", total);
  shmem_finalize();
  return 0;
}
