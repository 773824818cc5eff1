// Keeps the memory the analysis frees for the tables it allocates next.
//
// Each stage of the analysis (clock repair, matching, the replays of the root-cause analysis,
// the rules) builds tables of tens to hundreds of megabytes and frees them when it is done.
// glibc serves every allocation above its mmap threshold (at most 32 MiB) with a fresh
// mapping and unmaps it at free, so the next stage's tables are faulted in and zeroed by the
// kernel all over again: on a 6.6 M-event archive recorded from a real program that zeroing
// was a third of the analysis's CPU time. The analyzer's executables take blocks from 256 KiB up
// from page_recycler (recycled_new.cpp), which keeps their pages when they are freed and moves
// them into the next blocks; the smaller ones come from the heap, never trimmed and from one
// arena, so that tables freed by one rule thread serve the next thread's. The kernel zeroes each
// page once, and the peak stays where it was (the stages' tables are alive one after the other,
// not at once). Call keep_freed_memory_for_reuse() first thing in main().
#pragma once

#include <malloc.h>

#include <climits>

#include "page_recycler.h"

namespace collwrap {

inline void keep_freed_memory_for_reuse() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  mallopt(M_ARENA_MAX, 1);
}

// Gives the freed pages back to the system: at the few points where much of what the analysis
// holds has just been freed and the next stage needs less (after the clock repair's working
// tables), so that the freed memory does not stay at the peak beside the next stage's tables.
// Costs a page fault per page used again.
inline void give_back_freed_memory() {
  malloc_trim(0);
  page_recycler::give_back_all();
}

// The same where the next stage allocates about as much as was freed (the root-cause analysis,
// after the op details go): the large blocks' pages stay for its tables, which page_recycler
// makes of them; only the heap's free pages, which could not serve them, go back.
inline void pass_freed_memory_to_next_stage() {
  malloc_trim(0);
}

}  // namespace collwrap
