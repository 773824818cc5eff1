#include "critical_path.h"

#include <algorithm>

namespace collwrap {

CriticalPath critical_path(const Trace& trace, const ReplayGraph& graph, const ReplayTimes& times) {
  CriticalPath path;
  // The location whose last call leaves last.
  std::uint32_t g = kNone;
  for (std::uint32_t loc = 0; loc + 1 < graph.loc_first_call.size(); ++loc) {
    const std::uint32_t first = graph.loc_first_call[loc], end = graph.loc_first_call[loc + 1];
    if (first == end) continue;
    if (g == kNone || times.leave[end - 1] > times.leave[g]) g = end - 1;
  }
  // Each step moves to an earlier point; the bound only guards against damaged input.
  for (std::size_t steps = 0; g != kNone && steps <= graph.calls(); ++steps) {
    const std::uint32_t waited_for = times.waited_for[g];
    const TimeNs from = waited_for == kNone ? times.enter[g] : times.enter[waited_for];
    const std::uint32_t at = waited_for == kNone ? g : waited_for;  // the Enter we go on from
    if (at != g) {
      // The waiting call's own part; the path continues at the Enter of the call waited for.
      path.calls.push_back(g);
      path.call_time.push_back(times.leave[g] - from);
      path.segment_time.push_back(0);
      ++path.hops;
    }
    const std::uint32_t loc = graph.call_loc[at];
    const bool first = at == graph.loc_first_call[loc];
    const TimeNs previous = first ? trace.begin : times.leave[at - 1];
    if (at == g) {
      path.calls.push_back(g);
      path.call_time.push_back(times.leave[g] - times.enter[g]);
    } else {
      path.calls.push_back(at);
      path.call_time.push_back(0);  // its time after `from` is not on the path
    }
    path.segment_time.push_back(times.enter[at] - previous);
    g = first ? kNone : at - 1;
  }
  for (std::size_t i = 0; i < path.calls.size(); ++i)
    path.length += path.call_time[i] + path.segment_time[i];
  return path;
}

std::vector<CriticalPathPiece> critical_path_pieces(const ReplayGraph& graph,
                                                    const ReplayTimes& times,
                                                    const CriticalPath& path) {
  std::vector<CriticalPathPiece> pieces;
  const auto add = [&](std::uint32_t loc, TimeNs from, TimeNs to) {
    if (to <= from) return;
    // The steps run backwards in time: a piece on the same location extends the last one.
    if (!pieces.empty() && pieces.back().loc == loc) {
      pieces.back().from = from;
    } else {
      pieces.push_back({loc, from, to});
    }
  };
  for (std::size_t i = 0; i < path.calls.size(); ++i) {
    const std::uint32_t g = path.calls[i];
    const std::uint32_t loc = graph.call_loc[g];
    add(loc, times.leave[g] - path.call_time[i], times.leave[g]);
    add(loc, times.enter[g] - path.segment_time[i], times.enter[g]);
  }
  std::reverse(pieces.begin(), pieces.end());
  return pieces;
}

}  // namespace collwrap
