#include "shmem/lifecycle.h"

#include <pshmem.h>

#include <memory>

#include "shmem/active_sets.h"
#include "shmem/one_sided.h"
#include "shmem/shmem_process_group.h"

namespace collwrap::tracer {
namespace {

int g_my_pe = 0;
int g_n_pes = 1;

// Set when shmem_init found tracing already on (a hybrid program after MPI_Init).
struct NestedInit {
  bool active = false;
  Ticks entered = 0;
  CallSiteRef site = 0;
};
NestedInit g_nested;

// Registered when the library is loaded, so that a hybrid program traced from MPI_Init on
// still writes the OpenSHMEM groups and windows; empty until shmem_init.
const bool g_definitions_registered = [] {
  register_definitions_source(shmem_definitions);
  return true;
}();

}  // namespace

namespace shmem {
int my_pe() noexcept {
  return g_my_pe;
}
int world_size() noexcept {
  return g_n_pes;
}
}  // namespace shmem

void shmem_init_enter(RegionRef region, void* return_address) noexcept {
  if (thread_recorder() != nullptr) {
    g_nested = {true, now(), intern_callsite(return_address)};
    return;
  }
  init_enter(region, return_address);
}

void shmem_init_leave(RegionRef region, bool initialized) noexcept {
  if (initialized) {
    g_my_pe = pshmem_my_pe();
    g_n_pes = pshmem_n_pes();
    start_active_sets(g_my_pe, g_n_pes);
  }
  if (g_nested.active) {
    g_nested.active = false;
    if (ThreadRecorder* r = thread_recorder()) {
      r->enter(g_nested.entered, region, g_nested.site);
      if (initialized) r->rma_win_create(now(), kShmemWorldWindow);
      r->leave(now(), region);
    }
    return;
  }
  if (!initialized) return;
  std::unique_ptr<ShmemProcessGroup> group;
  try {
    group = std::make_unique<ShmemProcessGroup>();
  } catch (...) {
    // Out of memory: init_leave gets no group and leaves tracing off.
  }
  if (group && !group->usable()) group.reset();
  init_leave(std::move(group));
  if (ThreadRecorder* r = thread_recorder()) r->rma_win_create(now(), kShmemWorldWindow);
}

void shmem_finalize_enter(RegionRef region, void* return_address) noexcept {
  if (ThreadRecorder* r = thread_recorder()) r->rma_win_destroy(now(), kShmemWorldWindow);
  finalize_enter(region, return_address);
}

}  // namespace collwrap::tracer
