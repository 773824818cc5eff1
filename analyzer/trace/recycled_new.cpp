// The program's operator new and delete: large blocks from page_recycler, the rest from the
// heap. Linked into the analyzer's executables only (an object library, so that the linker
// cannot leave it out); not under a sanitizer, whose own operators check every block.
#include <cstdlib>
#include <new>

#include "page_recycler.h"

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

namespace {

// A large block the system refuses a mapping for (the process's mappings at their limit,
// vm.max_map_count) comes from the heap, which grows in place: only when that fails too is
// the memory exhausted.
void* allocate(std::size_t bytes) noexcept {
  if (bytes >= collwrap::page_recycler::kLargeBlock)
    if (void* p = collwrap::page_recycler::allocate(bytes)) return p;
  return std::malloc(bytes == 0 ? 1 : bytes);
}

void* allocate_or_throw(std::size_t bytes) {
  for (;;) {
    if (void* p = allocate(bytes)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void release(void* p) noexcept {
  if (collwrap::page_recycler::owns(p))
    collwrap::page_recycler::release(p);
  else
    std::free(p);
}

}  // namespace

void* operator new(std::size_t bytes) {
  return allocate_or_throw(bytes);
}
void* operator new[](std::size_t bytes) {
  return allocate_or_throw(bytes);
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  return allocate(bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return allocate(bytes);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}

#endif
