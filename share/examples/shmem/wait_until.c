/* wait_until: a PE waits in shmem_wait_until for a flag that another PE sets late.
 *
 * PE 1 works DELAY_US (usleep) before it puts the data and raises the flag on PE 0; PE 0 waits
 * for the flag. Expected: late_wait_until on PE 0 at the shmem_long_wait_until line, peer PE 1
 * (whose put released it), ITERATIONS x DELAY_US = 1.0 s.
 * Two analyzer processes give the report of the analyzer alone, each holding its share of
 * the trace (@job divided).
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 2 ./wait_until
 */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000 };

static long flag = 0;
static long data = 0;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 2) {
    fprintf(stderr, "wait_until: run with 2 or more PEs (oshrun -np 2)\n");
    shmem_global_exit(2);
  }
  long sum = 0;
  for (int i = 1; i <= ITERATIONS; ++i) {
    if (me == 1) {
      usleep(DELAY_US); /* the producer's work */
      shmem_long_p(&data, 10L * i, 0);
      shmem_fence();
      shmem_long_p(&flag, i, 0);
    } else if (me == 0) {
      /* The expectation stays on the line of the call. */
      /* clang-format off */
      shmem_long_wait_until(&flag, SHMEM_CMP_GE, i); /* @expect late_wait_until rank=0 peer=1 wait=1.0 */
      /* clang-format on */
      sum += data;
    }
    shmem_barrier_all();
  }
  if (me == 0) printf("wait_until: sum %ld\n", sum);
  shmem_finalize();
  return 0;
}
