#include "critical_path.h"

#include <algorithm>

#include "unused_capacity.h"

namespace collwrap {

CriticalPathTotals walk_critical_path(const ReplayGraph& graph, const ReplayTimes& times,
                                      const std::function<void(const CriticalPathStep&)>& visit) {
  CriticalPathTotals totals;
  const auto step = [&](std::uint32_t call, TimeNs call_time, TimeNs segment_time) {
    totals.length += call_time + segment_time;
    visit({call, call_time, segment_time});
  };
  // The location whose last call leaves last.
  std::uint32_t g = kNone;
  for (std::uint32_t loc = 0; loc + 1 < graph.loc_first_call.size(); ++loc) {
    const std::uint32_t first = graph.loc_first_call[loc], end = graph.loc_first_call[loc + 1];
    if (first == end) continue;
    if (g == kNone || times.leave(end - 1) > times.leave(g)) g = end - 1;
  }
  // Each step moves to an earlier point; the bound only guards against damaged input.
  for (std::size_t steps = 0; g != kNone && steps <= graph.calls(); ++steps) {
    const std::uint32_t waited_for = times.waited_for[g];
    const TimeNs from = waited_for == kNone ? times.enter[g] : times.enter[waited_for];
    const std::uint32_t at = waited_for == kNone ? g : waited_for;  // the Enter we go on from
    if (at != g) {
      // The waiting call's own part; the path continues at the Enter of the call waited for.
      step(g, times.leave(g) - from, 0);
      ++totals.hops;
    }
    // A call waited for has no time after `from` on the path.
    step(at, at == g ? times.leave(g) - times.enter[g] : 0, graph.segment(at));
    g = at == graph.loc_first_call[graph.call_loc[at]] ? kNone : at - 1;
  }
  return totals;
}

void CriticalPathPieces::extend(std::uint32_t loc, TimeNs from, TimeNs to) {
  if (to <= from) return;
  // The steps run backwards in time: a piece on the same location extends the last one.
  if (!latest_first_.empty() && latest_first_.back().loc == loc)
    latest_first_.back().from = from;
  else
    latest_first_.push_back({loc, from, to});
}

void CriticalPathPieces::add(const CriticalPathStep& step) {
  const std::uint32_t g = step.call;
  const std::uint32_t loc = graph_.call_loc[g];
  const TimeNs leave = times_.leave(g);
  extend(loc, leave - step.call_time, leave);
  extend(loc, times_.enter[g] - step.segment_time, times_.enter[g]);
}

std::vector<CriticalPathPiece> CriticalPathPieces::finish() {
  // Turned around where they are, and kept only as large as they are: a copy at the exact size
  // would need both at once, and the pieces can be as many as the calls.
  std::reverse(latest_first_.begin(), latest_first_.end());
  release_unused_capacity(latest_first_);
  return std::move(latest_first_);
}

}  // namespace collwrap
