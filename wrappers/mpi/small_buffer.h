// SmallBuffer: an array of n elements, inline up to N, else on the heap. Allocation failure
// leaves it empty instead of throwing, so wrappers can use it before their PMPI call. Elements
// are default-initialized (trivial types stay uninitialized), and only the n in use: it sits on
// every completion call's path, where constructing all N inline elements of a type with
// member initializers cost more than the rest of a failed MPI_Test's tracing.
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
    } else {
      for (std::size_t i = 0; i < n; ++i) new (inline_ + i * sizeof(T)) T;
    }
  }
  ~SmallBuffer() {
    if (!heap_) std::destroy_n(data(), size_);
  }
  SmallBuffer(const SmallBuffer&) = delete;
  SmallBuffer& operator=(const SmallBuffer&) = delete;

  std::size_t size() const noexcept { return size_; }
  T* data() noexcept { return heap_ ? heap_.get() : std::launder(reinterpret_cast<T*>(inline_)); }
  T& operator[](std::size_t i) noexcept { return data()[i]; }

 private:
  std::size_t size_;
  alignas(T) unsigned char inline_[N * sizeof(T)];
  std::unique_ptr<T[]> heap_;
};

}  // namespace collwrap::tracer
