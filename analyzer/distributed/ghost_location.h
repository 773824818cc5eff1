// A ghost: the part of another process's location that this process reads (ghost_selection.h),
// as a Location of its own, and the way it travels between processes as bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace_model.h"

namespace collwrap {

struct GhostLocation {
  // The selected ops, in their order, each in a copy of the call that holds it; the identity
  // (rank, thread, node, OTF2 id) of the original. Pcontrol calls are not copied.
  Location events;
  // Index on the original location of each call and op of `events`.
  std::vector<std::uint32_t> origin_call, origin_op;
};

// `ops`: ascending indexes of ops of `original`.
GhostLocation extract_ghost(const Location& original, std::span<const std::uint32_t> ops);

// Appends a ghost of location `location` to `bytes`; read_ghosts gives them back in order.
// The bytes hold the columns as they are in memory: both ends run the same binary on one kind
// of machine.
void append_ghost(std::vector<char>& bytes, std::uint32_t location, const GhostLocation& ghost);

struct ReceivedGhost {
  std::uint32_t location = 0;
  GhostLocation ghost;
};
// Throws std::runtime_error when the bytes end inside a ghost.
std::vector<ReceivedGhost> read_ghosts(std::span<const char> bytes);

}  // namespace collwrap
