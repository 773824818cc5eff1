#include "mpi/semantics.h"

#include <cstdio>

#include "mpi/pmpi_queries.h"

namespace collwrap::tracer {

Semantics& create_process_semantics() noexcept {
  return *new Semantics(*new PmpiQueries);
}

void report_internal_error(const char* mpi_function, const char* what) noexcept {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) return;
  std::fprintf(stderr,
               "collwrap: internal error while recording %s (%s); records of this call may be "
               "incomplete, the program continues\n",
               mpi_function, what);
}

}  // namespace collwrap::tracer
