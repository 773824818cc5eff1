#include "critical_path.h"

#include <algorithm>

#include "unused_capacity.h"

namespace collwrap {

namespace {

// What the walk reads of a replay at call g: the call whose Enter it goes on from (g itself,
// or the call g waited for), that Enter, g's Enter and Leave, the segment before the call it
// goes on from, and whether that call is its location's first. Global call ids.
struct PathPoint {
  std::uint32_t at = kNone;
  TimeNs from = 0, enter = 0, leave = 0, at_segment = 0;
  bool at_first = false;
};

// Walks back from call g while `goes_on(g)`, adding to `totals`; returns the call the path goes
// on from next (kNone at the start of the run).
template <typename PointAt, typename GoesOn>
std::uint32_t walk_back_from(std::uint32_t g, std::size_t calls, PointAt&& point_at,
                             GoesOn&& goes_on, CriticalPathTotals& totals,
                             const std::function<void(const CriticalPathStep&)>& visit) {
  const auto step = [&](std::uint32_t call, TimeNs call_time, TimeNs segment_time) {
    totals.length += call_time + segment_time;
    visit({call, call_time, segment_time});
  };
  // Each step moves to an earlier point; the bound only guards against damaged input.
  for (std::size_t steps = 0; g != kNone && goes_on(g) && steps <= calls; ++steps) {
    const PathPoint p = point_at(g);
    if (p.at != g) {
      // The waiting call's own part; the path continues at the Enter of the call waited for.
      step(g, p.leave - p.from, 0);
      ++totals.hops;
    }
    // A call waited for has no time after `from` on the path.
    step(p.at, p.at == g ? p.leave - p.enter : 0, p.at_segment);
    g = p.at_first ? kNone : p.at - 1;
  }
  return g;
}

// The location of global call g, from the first calls of the locations (the cuts' first row).
std::uint32_t location_of(const SliceCuts& cuts, std::uint32_t g) {
  const std::span<const std::uint32_t> first = cuts.row(0);
  return static_cast<std::uint32_t>(std::upper_bound(first.begin(), first.end(), g) -
                                    first.begin()) -
         1;
}

// The slice that leaves global call g of location `loc`.
std::size_t slice_leaving(const SliceCuts& cuts, std::uint32_t loc, std::uint32_t g) {
  std::size_t s = 0;
  while (s + 1 < cuts.slices() && cuts.row(s + 1)[loc] <= g) ++s;
  return s;
}

}  // namespace

CriticalPathTotals walk_critical_path(const ReplayGraph& graph, const ReplayTimes& times,
                                      const std::function<void(const CriticalPathStep&)>& visit) {
  // The location whose last call leaves last.
  std::uint32_t g = kNone;
  for (std::uint32_t loc = 0; loc + 1 < graph.loc_first_call.size(); ++loc) {
    const std::uint32_t first = graph.loc_first_call[loc], end = graph.loc_first_call[loc + 1];
    if (first == end) continue;
    if (g == kNone || times.leave(end - 1) > times.leave(g)) g = end - 1;
  }
  CriticalPathTotals totals;
  walk_back_from(
      g, graph.calls(),
      [&](std::uint32_t call) {
        const std::uint32_t waited_for = times.waited_for[call];
        const std::uint32_t at = waited_for == kNone ? call : waited_for;
        return PathPoint{at,
                         times.enter[at],
                         times.enter[call],
                         times.leave(call),
                         graph.segment(at),
                         at == graph.loc_first_call[graph.call_loc[at]]};
      },
      [](std::uint32_t) { return true; }, totals, visit);
  return totals;
}

std::uint32_t walk_slice_back(const ReplaySlice& here, std::size_t s, const SliceCuts& cuts,
                              std::uint32_t g, CriticalPathTotals& totals,
                              const std::function<void(const CriticalPathStep&)>& visit) {
  return walk_back_from(
      g, here.part.global.size(),
      [&](std::uint32_t call) {
        const ReplayTimes& times = here.times;
        const std::uint32_t local = here.part.local(call);
        const std::uint32_t waited_for = times.waited_for[local];
        const std::uint32_t at_local = waited_for == kNone ? local : waited_for;
        const std::uint32_t at = here.part.global[at_local];
        return PathPoint{at,
                         times.enter[at_local],
                         times.enter[local],
                         times.leave(local),
                         here.part.graph.segment(at_local),
                         at == cuts.row(0)[location_of(cuts, at)]};
      },
      [&](std::uint32_t call) { return slice_leaving(cuts, location_of(cuts, call), call) == s; },
      totals, visit);
}

CriticalPathTotals walk_critical_path_in_slices(
    const std::vector<ReplaySlice>& slices, const SliceCuts& cuts,
    const std::function<void(const CriticalPathStep&)>& visit) {
  // The location whose last call leaves last: each location's last call is in the last slice
  // that leaves any of its calls.
  std::uint32_t g = kNone;
  TimeNs latest = 0;
  for (std::uint32_t loc = 0; loc < cuts.locations; ++loc)
    for (std::size_t s = slices.size(); s-- > 0;) {
      const SliceGraph& part = slices[s].part;
      if (part.from[loc] == part.to[loc]) continue;
      const TimeNs leave = slices[s].times.leave(part.to[loc] - 1);
      if (g == kNone || leave > latest) g = part.global[part.to[loc] - 1], latest = leave;
      break;
    }
  // The path goes from later slices to earlier ones only.
  CriticalPathTotals totals;
  for (std::size_t s = slices.size(); s-- > 0 && g != kNone;)
    g = walk_slice_back(slices[s], s, cuts, g, totals, visit);
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
