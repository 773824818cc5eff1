/* lock_contention: PEs queue for one lock that PE 0 holds too long.
 *
 * PE 0 takes the lock before a barrier, so that every PE knows it holds it, then works HOLD_US
 * inside its critical section (usleep stands for the work) while the others request the lock
 * and wait. Each holder adds to a counter on PE 0. Expected: lock_contention on PEs 1, 2 and 3
 * at the second shmem_set_lock line with the holder, PE 0, as peer, at least
 * ITERATIONS x HOLD_US = 0.6 s each.
 * Two analyzer processes give the report of the analyzer alone, each holding its share of
 * the trace (@job divided).
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 4 ./lock_contention
 */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 3, HOLD_US = 200000 };

static long lock = 0;
static long counter = 0;

static void add_to_counter(long value) {
  shmem_long_p(&counter, shmem_long_g(&counter, 0) + value, 0);
  shmem_quiet();
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 2) {
    fprintf(stderr, "lock_contention: run with 2 or more PEs (oshrun -np 4)\n");
    shmem_global_exit(2);
  }
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 0) shmem_set_lock(&lock);
    shmem_barrier_all(); /* @startup: PE 0 holds the lock from here on */
    if (me == 0) {
      usleep(HOLD_US); /* the long critical section */
      add_to_counter(me + 1);
    } else {
      shmem_set_lock(&lock); /* @expect lock_contention rank=1,2,3 peer=0 wait=0.6 */
      add_to_counter(me + 1);
    }
    shmem_clear_lock(&lock);
    shmem_barrier_all();
  }
  if (me == 0) printf("lock_contention: counter %ld\n", counter);
  shmem_finalize();
  return 0;
}
