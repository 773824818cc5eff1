// Keeps the memory the analysis frees for the tables it allocates next.
//
// Each stage of the analysis (clock repair, matching, the replays of the root-cause analysis,
// the rules) builds tables of tens to hundreds of megabytes and frees them when it is done.
// glibc serves every allocation above its mmap threshold (at most 32 MiB) with a fresh
// mapping and unmaps it at free, so the next stage's tables are faulted in and zeroed by the
// kernel all over again: on a 6.6 M-event archive recorded from a real program that zeroing
// was a third of the analysis's CPU time. Taken from the heap instead, never trimmed, and
// from one arena, so that tables freed by one rule thread serve the next thread's, the freed
// memory is reused: the kernel zeroes each page once, and the peak stays where it was (the
// stages' tables are alive one after the other, not at once). Call it first thing in main().
// Where a stage frees far more than the next allocates, give_back_freed_memory() below.
#pragma once

#include <malloc.h>

#include <climits>

namespace collwrap {

inline void keep_freed_memory_for_reuse() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  mallopt(M_ARENA_MAX, 1);
}

// Gives the heap's free pages back to the system: at the few points where much of what the
// analysis holds has just been freed and the next stage needs less (after the matching's
// working tables; before the root-cause analysis, when the op details go), so that the freed
// memory does not stay at the peak beside the next stage's tables, which it would serve only
// in part, being cut into pieces of other sizes. Costs a page fault per page used again.
inline void give_back_freed_memory() {
  malloc_trim(0);
}

}  // namespace collwrap
