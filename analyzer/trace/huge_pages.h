// A hint for the large vectors of the reader and the matcher.
//
// The columns of a big trace and the matcher's tables take hundreds of megabytes that are
// first touched as they are filled. In 4 KiB pages that is one page fault per 4 KiB written,
// about a tenth of the analysis time. Where the system hands out transparent huge pages on
// request (the usual "madvise" setting), asking for them on freshly reserved memory cuts the
// faults 512-fold. Only whole 2 MiB pages inside the vector are advised; nothing else about
// the memory changes.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <vector>

namespace collwrap {

template <class T>
void advise_huge_pages(const std::vector<T>& column) {
  constexpr std::uintptr_t kHugePage = std::uintptr_t{1} << 21;
  const auto begin = reinterpret_cast<std::uintptr_t>(column.data());
  const std::uintptr_t end = begin + column.capacity() * sizeof(T);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t last = end & ~(kHugePage - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

// Gives the pages of the capacity beyond size() back to the system. A column reserved at a
// generous bound and filled only partly ends inside a huge page it touched: without this, the
// whole 2 MiB page stays resident for each column. The capacity stays usable (it reads as
// zeros if written again); only its backing memory goes.
template <class T>
void release_unused_capacity(const std::vector<T>& column) {
  constexpr std::uintptr_t kPage = 4096;
  const auto begin = reinterpret_cast<std::uintptr_t>(column.data());
  const std::uintptr_t used = (begin + column.size() * sizeof(T) + kPage - 1) & ~(kPage - 1);
  const std::uintptr_t end = (begin + column.capacity() * sizeof(T)) & ~(kPage - 1);
  if (end > used) madvise(reinterpret_cast<void*>(used), end - used, MADV_DONTNEED);
}

// reserve(n), then the hint.
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v);
}

}  // namespace collwrap
