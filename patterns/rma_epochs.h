// General active target synchronization of MPI windows as the RMA rules see it: each access
// epoch (MPI_Win_start … MPI_Win_complete of an origin) paired with the exposure epoch
// (MPI_Win_post … MPI_Win_wait of a target) it accessed. MPI matches a start with the post of
// each target in order, per window and pair of processes, so the k-th access epoch of origin o
// to target t belongs to the k-th exposure epoch of t that names o.
#pragma once

#include <vector>

#include "pattern.h"
#include "trace_access.h"

namespace collwrap {

struct RmaEpoch {
  std::uint32_t loc = kNone;
  std::uint32_t open = kNone;       // MPI_Win_post or MPI_Win_start
  std::uint32_t close = kNone;      // MPI_Win_wait (or a successful MPI_Win_test), MPI_Win_complete
  std::uint32_t window = kNone;     // the window's communicator
  std::vector<std::int32_t> group;  // world ranks of the other side
  std::vector<std::uint32_t> partners;  // per group member: its epoch's index, or kNone
};

struct RmaEpochs {
  std::vector<RmaEpoch> access;    // partners index into exposure
  std::vector<RmaEpoch> exposure;  // partners index into access
};

// The trace's epochs, paired. Epochs whose closing call is missing are left out.
RmaEpochs rma_epochs(const Trace& trace);

}  // namespace collwrap
