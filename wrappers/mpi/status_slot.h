// StatusSlot: the status a receive wrapper passes to PMPI, so that the actual source, tag and
// size are known even when the caller passed MPI_STATUS_IGNORE.
#pragma once

#include <mpi.h>

namespace collwrap::tracer {

class StatusSlot {
 public:
  explicit StatusSlot(MPI_Status* caller) noexcept
      : status_(caller == MPI_STATUS_IGNORE ? &own_ : caller) {}
  StatusSlot(const StatusSlot&) = delete;
  StatusSlot& operator=(const StatusSlot&) = delete;

  MPI_Status* get() const noexcept { return status_; }

 private:
  MPI_Status own_{};
  MPI_Status* status_;
};

}  // namespace collwrap::tracer
