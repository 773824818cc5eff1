/* late_broadcast: the root of shmem_broadcast64 arrives late and the others wait for it.
 *
 * PE 0, the root, works DELAY_US (usleep) before each broadcast. Expected: late_broadcast on
 * PEs 1, 2 and 3 at the shmem_broadcast64 line, peer PE 0, ITERATIONS x DELAY_US = 1.0 s each.
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 4 ./late_broadcast
 */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

enum { ITERATIONS = 5, DELAY_US = 200000, WORDS = 16 };

static long psync[SHMEM_BCAST_SYNC_SIZE];
static long src[WORDS], dst[WORDS];

int main(void) {
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 4) {
    fprintf(stderr, "late_broadcast: run with 4 or more PEs (oshrun -np 4)\n");
    shmem_global_exit(2);
  }
  shmem_barrier_all(); /* @startup: PEs leave shmem_init at different times */
  long sum = 0;
  for (int i = 0; i < ITERATIONS; ++i) {
    if (me == 0) {
      usleep(DELAY_US); /* the root's work before it has the data */
      for (int w = 0; w < WORDS; ++w) src[w] = i * WORDS + w;
    }
    /* The expectation stays on the line of the call. */
    /* clang-format off */
    shmem_broadcast64(dst, src, WORDS, 0, 0, 0, npes, psync); /* @expect late_broadcast rank=1,2,3 peer=0 wait=1.0 */
    /* clang-format on */
    shmem_barrier_all(); /* psync may be reused only after every PE left the broadcast */
    if (me != 0)
      for (int w = 0; w < WORDS; ++w) sum += dst[w];
  }
  printf("late_broadcast: PE %d sum %ld\n", me, sum);
  shmem_finalize();
  return 0;
}
