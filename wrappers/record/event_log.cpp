#include "record/event_log.h"

#include <sys/mman.h>

namespace collwrap::tracer {

LogStorage::~LogStorage() {
  if (data_ != nullptr) munmap(data_, words_ * sizeof(std::uint64_t));
}

bool LogStorage::allocate(std::size_t words) noexcept {
  // Populated now: a page first touched while recording would stall the traced call that
  // reaches it (a page fault, and the page zeroed), a perturbation the trace would show as the
  // program's own time.
  void* p = mmap(nullptr, words * sizeof(std::uint64_t), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED) return false;
  data_ = static_cast<std::uint64_t*>(p);
  words_ = words;
  return true;
}

void LogStorage::release() noexcept {
  if (data_ != nullptr) madvise(data_, words_ * sizeof(std::uint64_t), MADV_DONTNEED);
}

}  // namespace collwrap::tracer
