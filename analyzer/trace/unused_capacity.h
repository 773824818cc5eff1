// Giving back the pages of a vector's capacity that its size does not use.
//
// The reader reserves each column of a location at the most the location's declared event
// count allows (otf2_events.cpp), and fills it only partly. Reserved pages that are never
// written cost no memory, but where the system backs large mappings with transparent huge
// pages on its own ("always"), the 2 MiB page that holds the last written element stays
// resident for every column. The columns are not advised to take huge pages: on the 2-core
// VM this project is measured on, zeroing them cost more system time than the fewer page
// faults saved (ring archive of tests/perf/analyzer: 0.7-1.4 s against 0.3-0.4 s).
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <vector>

namespace collwrap {

// Gives the pages of the capacity beyond size() back to the system. The capacity stays usable
// (it reads as zeros if written again); only its backing memory goes.
template <class T>
void release_unused_capacity(const std::vector<T>& column) {
  constexpr std::uintptr_t kPage = 4096;
  const auto begin = reinterpret_cast<std::uintptr_t>(column.data());
  const std::uintptr_t used = (begin + column.size() * sizeof(T) + kPage - 1) & ~(kPage - 1);
  const std::uintptr_t end = (begin + column.capacity() * sizeof(T)) & ~(kPage - 1);
  if (end > used) madvise(reinterpret_cast<void*>(used), end - used, MADV_DONTNEED);
}

}  // namespace collwrap
