#include "mpi/lifecycle.h"

#include <mpi.h>

#include <memory>

#include "mpi/comms.h"
#include "mpi/mpi_process_group.h"
#include "mpi/semantics.h"
#include "mpi/windows.h"
#include "record/recorder.h"

namespace collwrap::tracer {

namespace {

// The communicators, windows and RMA synchronization groups, for the archive's Group, Comm and
// RmaWin definitions.
AdapterDefinitions mpi_definitions() {
  AdapterDefinitions d = windows().snapshot();
  std::vector<GroupInfo> comms = semantics().comms.snapshot();
  d.groups.insert(d.groups.begin(), comms.begin(), comms.end());
  return d;
}

}  // namespace

void handle_init(const char* mpi_function, int rc, const int* provided) noexcept {
  // Every thread level is traced the same way (locations are per thread, OTF2 is locked), but
  // only MPI_THREAD_MULTIPLE lets two calls share the request table at once. MPI_Init is
  // MPI_THREAD_SINGLE.
  if (rc != MPI_SUCCESS) return;
  semantics().requests.set_concurrent(provided && *provided == MPI_THREAD_MULTIPLE);
  guarded(mpi_function, [] { start_comm_bookkeeping(semantics()); });
  register_definitions_source(mpi_definitions);
  std::unique_ptr<ProcessGroup> world;
  try {
    world = std::make_unique<MpiProcessGroup>(MPI_COMM_WORLD);
  } catch (...) {
    // Out of memory: init_leave gets no group and leaves tracing off.
  }
  init_leave(std::move(world));
}

void handle_finalize() noexcept {
  semantics().stop();
}

}  // namespace collwrap::tracer
