#include "mpi/lifecycle.h"

#include <mpi.h>

#include "mpi/comms.h"
#include "mpi/semantics.h"
#include "recorder.h"

namespace collwrap::tracer {

void handle_init(const char* mpi_function, int rc, const int* provided) noexcept {
  if (rc != MPI_SUCCESS) return;
  guarded(mpi_function, [] { start_comm_bookkeeping(semantics()); });
  int level = MPI_THREAD_SINGLE;
  if (provided) {
    level = *provided;
  } else {
    PMPI_Query_thread(&level);
  }
  init_leave(level);
}

void handle_finalize() noexcept {
  semantics().stop();
}

}  // namespace collwrap::tracer
