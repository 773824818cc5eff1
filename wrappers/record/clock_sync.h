// Clock synchronization between processes (COLLWRAP_CLOCKSYNC). Each algorithm is collective
// over a ProcessGroup whose process 0 is the reference clock.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "record/clock_offset.h"
#include "record/process_group.h"
#include "record/tracer_config.h"

namespace collwrap::tracer {

struct ClockSyncResult {
  OffsetEstimate own;                   // this rank's offset to rank 0 (rank 0: offset 0, rtt 0)
  std::vector<OffsetEstimate> by_rank;  // rank 0 only, when the algorithm knows them: all ranks
};

class ClockSynchronizer {
 public:
  virtual ~ClockSynchronizer() = default;
  virtual const char* name() const = 0;
  // Must be called by every process of `group`.
  virtual ClockSyncResult synchronize(ProcessGroup& group) = 0;
};

// `patience`: stop a pair after this many exchanges without a smaller round trip. `size`: the
// group's size, which decides what `auto` means.
std::unique_ptr<ClockSynchronizer> make_clock_synchronizer(ClockSyncKind kind,
                                                           std::uint32_t patience, int size);

// The multi-hop algorithms, each in its own file.
std::unique_ptr<ClockSynchronizer> make_ring_clock_sync(std::uint32_t patience);
std::unique_ptr<ClockSynchronizer> make_tree_clock_sync(std::uint32_t patience);

}  // namespace collwrap::tracer
