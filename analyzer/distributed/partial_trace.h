// One analyzer process's view of an archive the processes of a job divide: its share of the
// locations in full and, of the other locations, the ghosts of what its own locations'
// analysis reads (ghost_selection.h). Locations keep their indexes, so an OpRef names the same
// location on every process; on a ghost it names the ghost's op, which original_op maps back.
#pragma once

#include <cstdint>
#include <vector>

#include "ghost_location.h"
#include "location_shares.h"
#include "matching.h"

namespace collwrap {

struct PartialTrace {
  // Definitions as on every process; the held locations in full; the others hold their ghost
  // (nothing if none came).
  Trace trace;
  LocationRange held;
  // By location: each call's and op's index on the original; empty for held locations.
  std::vector<std::vector<std::uint32_t>> origin_call, origin_op;

  // Puts a ghost in place of its location (ghost_exchange.h).
  void install(ReceivedGhost&& received);
  bool holds(std::uint32_t location) const { return held.contains(location); }
  OpRef original_op(OpRef op) const;
  std::uint32_t original_call(std::uint32_t location, std::uint32_t call) const;
};

}  // namespace collwrap
