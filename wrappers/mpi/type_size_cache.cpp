#include "mpi/type_size_cache.h"

namespace collwrap::tracer {
namespace {

// Generations are unique across all caches (see TypeSizeSlot); 0 is no cache's, so empty slots
// never match.
std::atomic<std::uint64_t> g_next_generation{1};

}  // namespace

constinit thread_local std::array<TypeSizeSlot, kTypeSizeSlots> t_type_sizes
    __attribute__((tls_model("initial-exec")));

TypeSizeCache::TypeSizeCache() : generation_(g_next_generation.fetch_add(1)) {}

void TypeSizeCache::forget_all() noexcept {
  generation_.store(g_next_generation.fetch_add(1), std::memory_order_release);
}

}  // namespace collwrap::tracer
