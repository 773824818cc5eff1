// Small read helpers over the struct-of-arrays Trace, shared by the rules.
#pragma once

#include <algorithm>
#include <ranges>

#include "matching.h"
#include "pattern.h"
#include "trace_model.h"

namespace collwrap {

// One MPI call (region instance) of a location, with what the rules ask of it.
struct CallView {
  std::uint32_t loc = kNone;
  std::uint32_t call = kNone;
  TimeNs enter = 0;
  TimeNs leave = 0;
  const RegionInfo* region = nullptr;

  bool valid() const { return call != kNone; }
  RegionClass cls() const { return region->cls; }
  TimeNs duration() const { return leave - enter; }
};

// The basic wait state (Scalasca): a call that cannot finish before `ready` idles from its
// Enter until then, but never longer than it lasted and never less than zero.
inline TimeNs idle_until(TimeNs ready, TimeNs enter, TimeNs leave) {
  return std::max<TimeNs>(0, std::min(ready, leave) - enter);
}
inline TimeNs idle_until(TimeNs ready, const CallView& waiting) {
  return idle_until(ready, waiting.enter, waiting.leave);
}

inline CallView call_view(const Trace& trace, std::uint32_t loc, std::uint32_t call) {
  const Location& l = trace.locations[loc];
  return {loc, call, l.call_enter[call], l.call_leave[call], &trace.regions[l.call_region[call]]};
}

// The call that recorded an op; invalid for ops outside any call (a damaged stream).
inline CallView call_holding(const Trace& trace, OpRef op) {
  if (!op.valid()) return {};
  const std::uint32_t call = trace.locations[op.loc].op_call[op.op];
  if (call == kNone) return {};
  return call_view(trace, op.loc, call);
}

inline std::int32_t rank_of(const Trace& trace, std::uint32_t loc) {
  return trace.locations[loc].rank;
}

// The rank and thread of a location, as the peer of an instance.
inline Peer peer_at(const Trace& trace, std::uint32_t loc) {
  const Location& l = trace.locations[loc];
  return {l.rank, l.thread};
}

// The message an op belongs to, or nullptr when the op is not a matched send or receive.
inline const Message* message_of(const Matching& matching, std::uint32_t loc, std::uint32_t op) {
  if (loc >= matching.message_of_op.size() || op >= matching.message_of_op[loc].size())
    return nullptr;
  const std::uint32_t m = matching.message_of_op[loc][op];
  return m == kNone ? nullptr : &matching.messages[m];
}

// Indexes of the ops recorded inside a call.
inline auto ops_of_call(const Trace& trace, std::uint32_t loc, std::uint32_t call) {
  const Location& l = trace.locations[loc];
  return std::views::iota(l.call_first_op[call], l.call_first_op[call + 1]);
}

}  // namespace collwrap
