// Large blocks whose pages outlive them: freed, they are kept; the next large blocks are made of
// them, their pages moved into place (mremap) rather than faulted in and zeroed anew.
//
// The analysis's stages free tables of tens to hundreds of megabytes, cut by location, and the
// next stage allocates tables of its own, whole-trace arrays of other sizes: from the heap, the
// freed pieces could not serve them (being cut into pieces of other sizes), so that they were
// given back to the system and the new tables faulted in, page by page, at about 2.5 µs a page
// on a virtual machine (a fifth of the analysis's time on archives recorded from real
// programs). Here each block above kLargeBlock has a mapping of its own; the freed ones wait,
// and a new one is taken from the smallest that holds it, or made of any of them, piece by piece,
// and fresh pages only for the rest. A freed page is used again before a fresh one is, so that
// what is held never exceeds what the analysis held before it freed them.
//
// Where a stage frees far more than the next allocates, give_back_all() returns the kept pages
// to the system (memory_reuse.h).
#pragma once

#include <cstddef>

namespace collwrap::page_recycler {

// Blocks smaller than this come from the heap.
inline constexpr std::size_t kLargeBlock = 256 * 1024;

// A block of at least `bytes`, aligned to 64 bytes, or nullptr when the system has no more.
void* allocate(std::size_t bytes) noexcept;
// Whether `p` was returned by allocate (read in the page that holds p only).
bool owns(const void* p) noexcept;
// Keeps the block's pages for the next blocks.
void release(void* p) noexcept;
// Gives back every freed page.
void give_back_all() noexcept;
// Bytes freed and kept, for the tests.
std::size_t kept_bytes() noexcept;

}  // namespace collwrap::page_recycler
