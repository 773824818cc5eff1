/* barrier_all: every PE waits in shmem_barrier_all for the last PE to arrive.
 *
 * PE 3 works DELAY_US longer before each barrier (usleep stands for the work), after putting
 * its part of a sum to PE 0. Expected: wait_at_barrier on PEs 0, 1 and 2 at the
 * shmem_barrier_all line, peer PE 3, ITERATIONS x DELAY_US = 1.0 s each.
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 4 ./barrier_all
 */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000 };

static long parts[64];

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 4 || npes > 64) {
    fprintf(stderr, "barrier_all: run with 4 to 64 PEs (oshrun -np 4)\n");
    shmem_global_exit(2);
  }
  shmem_barrier_all(); /* @startup: PEs leave shmem_init at different times */
  long total = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    shmem_long_p(&parts[me], (long)(me + 1) * (i + 1), 0);
    if (me == 3) usleep(DELAY_US); /* the slow PE's extra work */
    shmem_barrier_all();           /* @expect wait_at_barrier rank=0,1,2 peer=3 wait=1.0 */
    if (me == 0)
      for (int pe = 0; pe < npes; ++pe) total += parts[pe];
  }
  if (me == 0) printf("barrier_all: total %ld\n", total);
  shmem_finalize();
  return 0;
}
