// Clock synchronization between ranks, behind a small interface so that further algorithms
// (ring, tree) can be added next to the linear one. Each algorithm is collective over a
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

// `patience`: stop a pair after this many exchanges without a smaller round trip.
std::unique_ptr<ClockSynchronizer> make_clock_synchronizer(ClockSyncKind kind,
                                                           std::uint32_t patience);

// Upper bound on exchanges per pair, so a noisy machine cannot stall start-up.
constexpr std::uint32_t max_exchanges_for(std::uint32_t patience) {
  return 10 * patience + 10;
}

}  // namespace collwrap::tracer
