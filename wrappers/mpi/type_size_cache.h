// TypeSizeCache: datatype sizes, remembered by each thread, so that a send or collective with
// data does not ask MPI (PMPI_Type_size_x) every time.
//
// A freed datatype's handle may come back for a new type of another size, so MPI_Type_free
// renews the cache's generation before the PMPI call, which makes every thread's remembered
// sizes stale: no thread can get the reused handle before the free has begun. Sizes are kept in
// a few thread-local slots, so concurrent calls (MPI_THREAD_MULTIPLE) share nothing but the
// generation.
#pragma once

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "mpi/mpi_queries.h"

namespace collwrap::tracer {

// One remembered size. Its generation is the cache's at the time MPI was asked; generations are
// unique across caches, so a slot can never be taken for one of another (or a destroyed and
// recreated) cache.
struct TypeSizeSlot {
  std::uint64_t generation = 0;
  MPI_Datatype type{};
  std::uint64_t size = 0;
};
// A few slots, so that a program alternating between types keeps hitting. constinit and
// initial-exec: the inline lookup reads them thread-pointer-relative, without a call.
inline constexpr std::size_t kTypeSizeSlots = 8;
extern constinit thread_local std::array<TypeSizeSlot, kTypeSizeSlots> t_type_sizes
    __attribute__((tls_model("initial-exec")));

class TypeSizeCache {
 public:
  TypeSizeCache();

  // MpiQueries::type_size(type), asked only when this thread has no size of `type` from the
  // current generation. Sizes of 0 (MPI_DATATYPE_NULL, invalid handles) are not remembered.
  std::uint64_t size(MpiQueries& mpi, MPI_Datatype type) {
    const std::uint64_t generation = generation_.load(std::memory_order_acquire);
    TypeSizeSlot& slot = t_type_sizes[slot_of(type)];
    if (slot.generation == generation && slot.type == type) return slot.size;
    const std::uint64_t size = mpi.type_size(type);
    if (size != 0) slot = {generation, type, size};
    return size;
  }

  // A datatype is being freed: every remembered size is stale.
  void forget_all() noexcept;

 private:
  static std::size_t slot_of(MPI_Datatype type) noexcept {
    // Fibonacci hashing: Open MPI's handles are addresses of equally sized objects, whose low
    // bits repeat; the top 3 bits of the product pick one of the 8 slots.
    static_assert(kTypeSizeSlots == 8);
    const std::uint64_t bits = std::hash<MPI_Datatype>{}(type);
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15u) >> 61);
  }

  std::atomic<std::uint64_t> generation_;
};

}  // namespace collwrap::tracer
