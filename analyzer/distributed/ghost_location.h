// A ghost: the part of another process's location that this process reads (ghost_selection.h),
// as a Location of its own (ghost_exchange.h moves it between processes).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace_model.h"

namespace collwrap {

struct GhostLocation {
  // The selected ops, in their order, each in a copy of the call that holds it, and the calls
  // selected without their ops; the identity (rank, thread, node, OTF2 id) of the original.
  // Pcontrol calls are not copied.
  Location events;
  // Index on the original location of each call and op of `events`.
  std::vector<std::uint32_t> origin_call, origin_op;
};

// `ops`: ascending indexes of ops of `original`; `calls`: ascending indexes of calls to copy
// without their ops.
GhostLocation extract_ghost(const Location& original, std::span<const std::uint32_t> ops,
                            std::span<const std::uint32_t> calls = {});

// Where each event of a ghost (event_sequence.h: per call its Enter, its ops, its Leave) is in
// its original location's sequence, from the ghost's origin indexes (ascending).
std::vector<std::uint32_t> ghost_event_positions(const Location& original,
                                                 std::span<const std::uint32_t> origin_call,
                                                 std::span<const std::uint32_t> origin_op);

// A ghost with the index of the location it stands for.
struct ReceivedGhost {
  std::uint32_t location = 0;
  GhostLocation ghost;
};

}  // namespace collwrap
