// Clock synchronization between ranks (COLLWRAP_CLOCKSYNC). Each algorithm is collective over a
// communicator whose rank 0 is the reference clock.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "backend/clock_offset.h"
#include "backend/tracer_config.h"

namespace collwrap::tracer {

struct ClockSyncResult {
  OffsetEstimate own;                   // this rank's offset to rank 0 (rank 0: offset 0, rtt 0)
  std::vector<OffsetEstimate> by_rank;  // rank 0 only, when the algorithm knows them: all ranks
};

class ClockSynchronizer {
 public:
  virtual ~ClockSynchronizer() = default;
  virtual const char* name() const = 0;
  // Must be called by every rank of `comm` (uses PMPI only).
  virtual ClockSyncResult synchronize(MPI_Comm comm) = 0;
};

// `patience`: stop a pair after this many exchanges without a smaller round trip. `size`: the
// communicator's size, which decides what `auto` means.
std::unique_ptr<ClockSynchronizer> make_clock_synchronizer(ClockSyncKind kind,
                                                           std::uint32_t patience, int size);

// The multi-hop algorithms, each in its own file.
std::unique_ptr<ClockSynchronizer> make_ring_clock_sync(std::uint32_t patience);
std::unique_ptr<ClockSynchronizer> make_tree_clock_sync(std::uint32_t patience);

}  // namespace collwrap::tracer
