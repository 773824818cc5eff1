// SmallBuffer: an array of n elements, inline up to N, else on the heap. Allocation failure
// leaves it empty instead of throwing, so wrappers can use it before their PMPI call. Elements
// are default-initialized (trivial types stay uninitialized): it sits on every completion
// call's path, and its users write each element before reading it.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace collwrap::tracer {

template <class T, std::size_t N>
class SmallBuffer {
 public:
  explicit SmallBuffer(std::size_t n) noexcept : size_(n) {
    if (n > N) {
      heap_.reset(new (std::nothrow) T[n]);
      if (!heap_) size_ = 0;
    }
  }
  SmallBuffer(const SmallBuffer&) = delete;
  SmallBuffer& operator=(const SmallBuffer&) = delete;

  std::size_t size() const noexcept { return size_; }
  T* data() noexcept { return heap_ ? heap_.get() : inline_; }
  T& operator[](std::size_t i) noexcept { return data()[i]; }

 private:
  std::size_t size_;
  T inline_[N];
  std::unique_ptr<T[]> heap_;
};

}  // namespace collwrap::tracer
