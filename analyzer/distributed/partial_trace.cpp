#include "partial_trace.h"

namespace collwrap {

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
