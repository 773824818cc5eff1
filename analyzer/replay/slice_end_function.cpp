#include "slice_end_function.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

#include "replayer.h"

namespace collwrap {
namespace {

// Shorter than any path: what leads to no end.
constexpr TimeNs kNoPath = std::numeric_limits<TimeNs>::min() / 4;

template <std::size_t L>
using Lanes = std::array<TimeNs, L>;

template <std::size_t L>
Lanes<L> no_paths() {
  Lanes<L> lanes;
  lanes.fill(kNoPath);
  return lanes;
}

template <std::size_t L>
void raise(Lanes<L>& to, const Lanes<L>& by) {
  for (std::size_t lane = 0; lane < L; ++lane) to[lane] = std::max(to[lane], by[lane]);
}

// The length of the segment before each call of one lane, as the forward replay enters it:
// the recorded one, or scaled and rounded to the nearest ns. Asked location by location from
// the last call to the first (a cursor per location), or anywhere (found by bisection).
class SegmentLengths {
 public:
  SegmentLengths(const ReplayGraph& graph, std::span<const ScaledSegment> scaled)
      : graph_(graph), scaled_(scaled), next_(graph.locations()) {
    for (std::size_t loc = 0; loc < next_.size(); ++loc)
      next_[loc] = after(graph.loc_first_call[loc + 1]);
  }
  // Of call g of location `loc`, at or before the one asked before on it.
  TimeNs backwards(std::uint32_t loc, std::uint32_t g) {
    std::size_t& next = next_[loc];
    while (next > 0 && scaled_[next - 1].call > g) --next;
    return length(next, g);
  }
  TimeNs of(std::uint32_t g) const { return length(after(g + 1), g); }

 private:
  // The first scaled segment at or after call g.
  std::size_t after(std::uint32_t g) const {
    return static_cast<std::size_t>(
        std::lower_bound(scaled_.begin(), scaled_.end(), g,
                         [](const ScaledSegment& s, std::uint32_t c) { return s.call < c; }) -
        scaled_.begin());
  }
  // Of call g, whose scaled segment, if any, is the one before `next`.
  TimeNs length(std::size_t next, std::uint32_t g) const {
    return next > 0 && scaled_[next - 1].call == g ? scaled_[next - 1].of(graph_.segment(g))
                                                   : graph_.segment(g);
  }

  const ReplayGraph& graph_;
  std::span<const ScaledSegment> scaled_;
  std::vector<std::size_t> next_;  // by location: one past the scaled segments not passed yet
};

// The calls a schedule's replay processed, from the last to the first.
class BackwardOrder {
 public:
  BackwardOrder(const SliceGraph& part, const ReplaySchedule& schedule)
      : part_(part), schedule_(schedule), end_(part.to), run_(schedule.runs.size()) {}
  // The next call and its location; false after the first.
  bool next(std::uint32_t& call, std::uint32_t& loc) {
    while (left_ == 0) {
      if (run_ == 0) return false;
      const std::uint32_t run = schedule_.runs[--run_];
      loc_ = schedule_.location(run);
      left_ = schedule_.count(run);
      if (end_[loc_] < part_.from[loc_] + left_)
        throw std::invalid_argument("slice end function: the schedule of another slice");
    }
    --left_;
    call = --end_[loc_];
    loc = loc_;
    return true;
  }

 private:
  const SliceGraph& part_;
  const ReplaySchedule& schedule_;
  std::vector<std::uint32_t> end_;    // by location: one past its calls not walked yet
  std::size_t run_;                   // runs not walked yet: [0, run_)
  std::uint32_t left_ = 0, loc_ = 0;  // calls of the current run not walked yet, its location
};

// How far ahead of its turn a call's costs and gate list, its gates, and then the paths its
// gates lead to are asked for from memory. A call's path from its Leave raises the paths of the
// Enters it waited for, written long before: without asking ahead each such raise waited for
// memory, and the walk of the last slice at 10^8 events (-np 2) took 0.66 s, against 0.37 for a
// forward replay of the first slice; with it, 0.43-0.46 s.
constexpr std::size_t kCostsAhead = 24, kGatesAhead = 16, kPathsAhead = 8;

// Walks the slice backwards, lane by lane finding the longest path from every call's Enter to
// a Leave that ends a location's part of the slice (to_end), and returns the functions.
template <std::size_t L>
std::vector<SliceEndFunction> walk_back(const SliceGraph& part, const ReplaySchedule& schedule,
                                        std::span<const std::vector<ScaledSegment>> scaled,
                                        std::span<const std::uint32_t> handed) {
  const ReplayGraph& graph = part.graph;
  const std::size_t locations = graph.locations();
  std::vector<SegmentLengths> lengths;
  for (std::size_t lane = 0; lane < L; ++lane) lengths.emplace_back(graph, scaled[lane]);
  std::vector<Lanes<L>> to_end(graph.calls(), no_paths<L>());
  std::vector<Lanes<L>> instance_to_end(graph.instances(), no_paths<L>());

  // How many gates on each collective instance are yet to be walked: when none is, the
  // instance's path passes to its members' Enters, before the Leaves that lead to them are
  // walked.
  std::uint64_t calls = 0;
  std::vector<std::uint32_t> pending(graph.instances(), 0);
  for (std::size_t loc = 0; loc < locations; ++loc) {
    calls += part.to[loc] - part.from[loc];
    for (std::uint32_t c = part.from[loc]; c < part.to[loc]; ++c)
      for (const std::uint32_t gate : graph.gates_of(c))
        if (gate & kCollectiveGate) ++pending[gate & ~kCollectiveGate];
  }
  if (calls != schedule.calls || locations > (std::size_t{1} << schedule.loc_bits))
    throw std::invalid_argument("slice end function: the schedule of another slice");
  for (const ReplaySchedule::Broken& b : schedule.broken)
    if (const std::uint32_t gate = graph.gates_of(b.call)[b.gate_index]; gate & kCollectiveGate)
      --pending[gate & ~kCollectiveGate];

  BackwardOrder order(part, schedule), costs_ahead(part, schedule), gates_ahead(part, schedule),
      paths_ahead(part, schedule);
  std::uint32_t c = 0, loc = 0, a = 0, a_loc = 0;
  for (std::size_t k = 0; k < kCostsAhead; ++k) costs_ahead.next(a, a_loc);
  for (std::size_t k = 0; k < kGatesAhead; ++k) gates_ahead.next(a, a_loc);
  for (std::size_t k = 0; k < kPathsAhead; ++k) paths_ahead.next(a, a_loc);
  std::size_t broken = schedule.broken.size();  // those not walked yet: [0, broken)
  while (order.next(c, loc)) {
    if (costs_ahead.next(a, a_loc)) {
      __builtin_prefetch(graph.call_costs.data() + a);
      __builtin_prefetch(graph.gate_first.data() + a);
      __builtin_prefetch(to_end.data() + a);
    }
    if (gates_ahead.next(a, a_loc)) __builtin_prefetch(graph.gates.data() + graph.gate_first[a]);
    if (paths_ahead.next(a, a_loc))
      for (const std::uint32_t gate : graph.gates_of(a))
        if (!(gate & kCollectiveGate)) __builtin_prefetch(to_end.data() + gate, 1);
    const std::uint32_t loc_end = graph.loc_first_call[loc + 1];
    // From the call's Leave: it ends the location's part when it is its last call, and
    // leads to the next call's Enter.
    Lanes<L> from_leave = no_paths<L>();
    if (c + 1 == part.to[loc]) from_leave.fill(0);
    if (c + 1 < loc_end)
      for (std::size_t lane = 0; lane < L; ++lane)
        from_leave[lane] =
            std::max(from_leave[lane], to_end[c + 1][lane] + lengths[lane].backwards(loc, c + 1));
    // Into the Leave: from the call's Enter and from the Enters it waited for.
    const TimeNs own = graph.own_cost(c);
    for (TimeNs& t : from_leave) t += own;
    raise(to_end[c], from_leave);
    const std::span<const std::uint32_t> gates = graph.gates_of(c);
    for (auto k = static_cast<std::uint32_t>(gates.size()); k-- > 0;) {
      if (broken > 0 && schedule.broken[broken - 1].call == c &&
          schedule.broken[broken - 1].gate_index == k) {
        --broken;  // the replay ignored it
        continue;
      }
      const std::uint32_t gate = gates[k];
      if (!(gate & kCollectiveGate)) {
        raise(to_end[gate], from_leave);
        continue;
      }
      const std::uint32_t instance = gate & ~kCollectiveGate;
      raise(instance_to_end[instance], from_leave);
      if (--pending[instance] == 0)
        for (const std::uint32_t member : graph.members_of(instance))
          if (member != kNone) raise(to_end[member], instance_to_end[instance]);
    }
  }

  // The handed calls as the slice numbers them; locations whose first call here is not handed
  // over enter it from the trace's start.
  std::vector<std::uint32_t> held(handed.size());
  std::vector<bool> handed_first(locations, false);
  for (std::size_t k = 0; k < handed.size(); ++k) {
    held[k] = part.local(handed[k]);
    if (held[k] == kNone) throw std::invalid_argument("slice end function: a handed call not held");
    if (held[k] < part.runs.size()) handed_first[graph.call_loc[held[k]]] = true;
  }
  std::vector<SliceEndFunction> out(L);
  for (std::size_t lane = 0; lane < L; ++lane) {
    for (std::size_t k = 0; k < handed.size(); ++k)
      out[lane].to_end.emplace_back(handed[k], to_end[held[k]][lane]);
    TimeNs constant = graph.begin;
    for (std::uint32_t l = 0; l < locations; ++l) {
      const std::uint32_t first = part.from[l];
      if (!handed_first[l] && first < graph.loc_first_call[l + 1])
        constant = std::max(constant, graph.begin + lengths[lane].of(first) + to_end[first][lane]);
    }
    out[lane].constant = constant;
  }
  return out;
}

}  // namespace

TimeNs SliceEndFunction::operator()(const SliceHandover& in) const {
  if (in.size() != to_end.size())
    throw std::invalid_argument("slice end function: Enters of other calls handed in");
  TimeNs end = constant;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k].first != to_end[k].first)
      throw std::invalid_argument("slice end function: Enters of other calls handed in");
    end = std::max(end, in[k].second + to_end[k].second);
  }
  return end;
}

std::vector<SliceEndFunction> slice_end_functions(
    const SliceGraph& part, const ReplaySchedule& schedule,
    std::span<const std::span<const ScaledSegment>> scaled, std::span<const std::uint32_t> handed) {
  std::vector<std::vector<ScaledSegment>> here;
  for (const std::span<const ScaledSegment> s : scaled) here.push_back(scaled_in_slice(part, s));
  if (scaled.empty()) return {};
  return replay_engine::with_lanes(scaled.size(), "slice_end_functions", [&](auto lanes) {
    return walk_back<decltype(lanes)::value>(part, schedule, here, handed);
  });
}

}  // namespace collwrap
