#include "partial_trace.h"

#include "ghost_selection.h"

namespace collwrap {

std::vector<std::vector<char>> pack_ghosts(const Trace& trace, const Matching& links,
                                           const LocationRange& held, const ProcessMap& map) {
  std::vector<std::vector<char>> bytes(map.processes());
  for (std::size_t l = held.first; l < std::min(held.end, trace.locations.size()); ++l) {
    const auto location = static_cast<std::uint32_t>(l);
    const std::vector<std::vector<std::uint32_t>> ops =
        select_ghost_ops(trace, links, location, map);
    for (unsigned p = 0; p < ops.size(); ++p)
      if (!ops[p].empty())
        append_ghost(bytes[p], location, extract_ghost(trace.locations[l], ops[p]));
  }
  return bytes;
}

void PartialTrace::install(ReceivedGhost&& received) {
  const std::uint32_t l = received.location;
  if (l >= trace.locations.size() || holds(l)) return;
  if (origin_call.size() < trace.locations.size()) {
    origin_call.resize(trace.locations.size());
    origin_op.resize(trace.locations.size());
  }
  trace.locations[l] = std::move(received.ghost.events);
  origin_call[l] = std::move(received.ghost.origin_call);
  origin_op[l] = std::move(received.ghost.origin_op);
}

OpRef PartialTrace::original_op(OpRef op) const {
  if (!op.valid() || holds(op.loc)) return op;
  return {op.loc, origin_op.at(op.loc).at(op.op)};
}

std::uint32_t PartialTrace::original_call(std::uint32_t location, std::uint32_t call) const {
  if (call == kNone || holds(location)) return call;
  return origin_call.at(location).at(call);
}

}  // namespace collwrap
