/* small_puts: a PE sends many single-word puts to one neighbour instead of one block.
 *
 * Every PE puts COUNT longs one at a time (shmem_long_p) to the next PE, then the whole block
 * once with shmem_putmem. Expected: frequent_small_communication on every PE at the
 * shmem_long_p line, peer the next PE, COUNT puts of 8 bytes each per iteration.
 *
 *   LD_PRELOAD=libcollwrap.so oshrun --mca btl ^vader -np 4 ./small_puts
 */
#include <shmem.h>
#include <stdio.h>

enum { COUNT = 1000 };

static long block[COUNT];

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int next = (me + 1) % npes;
  long local[COUNT];
  for (int i = 0; i < COUNT; ++i) {
    local[i] = (long)me * COUNT + i;
    /* The expectation stays on the line of the call. */
    /* clang-format off */
    shmem_long_p(&block[i], local[i], next); /* @expect frequent_small_communication rank=0,1,2,3 peer=next */
    /* clang-format on */
  }
  shmem_barrier_all();
  long sum = 0;
  for (int i = 0; i < COUNT; ++i) sum += block[i];
  shmem_barrier_all();
  shmem_putmem(block, local, sizeof local, next); /* the aggregated alternative */
  shmem_barrier_all();
  long check = 0;
  for (int i = 0; i < COUNT; ++i) check += block[i];
  printf("small_puts: PE %d sums %ld %ld\n", me, sum, check);
  shmem_finalize();
  return 0;
}
