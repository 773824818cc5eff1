#include "replay.h"

#include <algorithm>
#include <limits>

namespace collwrap {
namespace {

constexpr TimeNs kUnset = std::numeric_limits<TimeNs>::min();

// Latest member Enter of each collective instance, found incrementally: each member is looked
// at once, however often a blocked location asks.
struct CollectiveState {
  std::vector<std::uint32_t> next;  // next member to look at
  std::vector<TimeNs> latest;       // replayed
  std::vector<std::uint32_t> last_call;
};

// Where one location of a replay stands. Written at every call, and for a trace of few
// locations a few bytes in all: each location's on its own cache line, so that replays running
// side by side on other cores do not stall each other by writing into one line (which had made
// a whole root-cause analysis of a four-rank trace take twice the CPU time, on some runs only,
// as the heap happened to place the replays' tables).
struct alignas(64) LocationCursor {
  TimeNs last_leave = 0;        // the Leave of its latest processed call
  std::size_t next_scaled = 0;  // its next entry in ReplayOptions::scaled_segments
  std::uint32_t next_call = 0;  // its next call to process, from its first
};

// One replay. Every call's Enter is kept, since the gates of later calls read it; whom it
// waited for (from which its Leave follows) only when `full` is given: a what-if question asks
// for the run's end alone, and the less a replay writes, the faster it runs.
class Replayer {
 public:
  Replayer(const Trace& trace, const ReplayGraph& graph, const ReplayOptions& options,
           std::vector<TimeNs>& enter, ReplayTimes* full)
      : trace_(trace), graph_(graph), options_(options), enter_(enter), full_(full) {
    const std::size_t n = graph.calls();
    // Only the Enters are read before this replay writes them (kUnset: not entered yet); every
    // call's waited_for is written when it is processed, and every call is.
    enter.assign(n, kUnset);
    if (full) {
      full->waited_for.resize(n);
      full->broken_gates = 0;
      full->graph = &graph;
      full->own_costs = options.network == NetworkModel::AsRecorded;
    }
    at_.assign(trace.locations.size(), LocationCursor{.last_leave = trace.begin});
    // Each location's first scaled segment: a location's calls have consecutive global ids and
    // are entered in order, so one cursor per location walks the list.
    const std::span<const ScaledSegment> scaled = options.scaled_segments;
    if (!scaled.empty())
      for (std::size_t loc = 0; loc < at_.size(); ++loc)
        at_[loc].next_scaled = static_cast<std::size_t>(
            std::lower_bound(scaled.begin(), scaled.end(), graph.loc_first_call[loc],
                             [](const ScaledSegment& s, std::uint32_t g) { return s.call < g; }) -
            scaled.begin());
    const std::size_t instances = graph.member_first.empty() ? 0 : graph.member_first.size() - 1;
    colls_.next.assign(graph.member_first.begin(), graph.member_first.begin() + instances);
    colls_.latest.assign(instances, kUnset);
    colls_.last_call.assign(instances, kNone);
  }

  // The latest Leave: a location's Leaves never decrease, so its last call ends it.
  TimeNs run() {
    const std::uint32_t locations = static_cast<std::uint32_t>(trace_.locations.size());
    std::vector<std::uint32_t> active;
    for (std::uint32_t loc = 0; loc < locations; ++loc)
      if (trace_.locations[loc].calls() > 0) active.push_back(loc);
    bool force = false;  // set when no location can move: the next blocked gate is ignored
    while (!active.empty()) {
      bool progress = false;
      std::size_t kept = 0;
      for (const std::uint32_t loc : active) {
        const std::uint32_t first = graph_.loc_first_call[loc];
        const std::uint32_t count = graph_.loc_first_call[loc + 1] - first;
        LocationCursor& at = at_[loc];
        while (at.next_call < count) {
          if (!advance(first + at.next_call, at, force)) break;
          force = false;
          progress = true;
          ++at.next_call;
        }
        if (at.next_call < count) active[kept++] = loc;
      }
      active.resize(kept);
      force = !progress;
    }
    TimeNs end = trace_.begin;
    for (const LocationCursor& at : at_) end = std::max(end, at.last_leave);
    return end;
  }

 private:
  // Processes call g of the location that stands at `at`; false when one of its gates is
  // still closed.
  bool advance(std::uint32_t g, LocationCursor& at, bool force) {
    if (enter_[g] == kUnset) {
      TimeNs segment = segment_before(trace_, graph_, g);
      if (const std::span<const ScaledSegment> scaled = options_.scaled_segments; !scaled.empty()) {
        std::size_t& next = at.next_scaled;
        if (next < scaled.size() && scaled[next].call == g) {
          // Rounded to the nearest ns.
          segment = static_cast<TimeNs>(
              static_cast<double>(segment) * static_cast<double>(scaled[next].factor) + 0.5);
          ++next;
        }
      }
      enter_[g] = at.last_leave + segment;
    }
    TimeNs latest = kUnset;
    std::uint32_t latest_call = kNone;
    for (const std::uint32_t gate : graph_.gates_of(g)) {
      TimeNs t;
      std::uint32_t call;
      if (gate & kCollectiveGate) {
        const std::uint32_t instance = gate & ~kCollectiveGate;
        if (!collective_ready(instance)) {
          if (force) {
            broken();
            continue;
          }
          return false;
        }
        t = colls_.latest[instance];
        call = colls_.last_call[instance];
      } else {
        if (enter_[gate] == kUnset) {
          if (force) {
            broken();
            continue;
          }
          return false;
        }
        t = enter_[gate];
        call = gate;
      }
      if (t > latest) latest = t, latest_call = call;
    }
    const TimeNs own = options_.network == NetworkModel::AsRecorded ? graph_.own_cost(g) : 0;
    TimeNs start = enter_[g];
    std::uint32_t waited_for = kNone;
    if (latest_call != kNone && latest > start && latest_call != g) {
      start = latest;
      waited_for = latest_call;
    }
    at.last_leave = start + own;  // ReplayTimes::leave gives the same from waited_for
    if (full_) full_->waited_for[g] = waited_for;
    return true;
  }

  void broken() {
    if (full_) ++full_->broken_gates;
  }

  bool collective_ready(std::uint32_t instance) {
    const std::uint32_t end = graph_.member_first[instance + 1];
    std::uint32_t& next = colls_.next[instance];
    for (; next < end; ++next) {
      const std::uint32_t call = graph_.member_calls[next];
      if (call == kNone) continue;
      const TimeNs t = enter_[call];
      if (t == kUnset) return false;
      if (t > colls_.latest[instance]) {
        colls_.latest[instance] = t;
        colls_.last_call[instance] = call;
      }
    }
    return colls_.last_call[instance] != kNone;
  }

  const Trace& trace_;
  const ReplayGraph& graph_;
  const ReplayOptions& options_;
  std::vector<TimeNs>& enter_;
  ReplayTimes* full_;
  std::vector<LocationCursor> at_;  // by location
  CollectiveState colls_;
};

}  // namespace

void replay_into(const Trace& trace, const ReplayGraph& graph, const ReplayOptions& options,
                 ReplayTimes& times) {
  times.end = Replayer(trace, graph, options, times.enter, &times).run();
}

TimeNs replay_end(const Trace& trace, const ReplayGraph& graph, const ReplayOptions& options,
                  std::vector<TimeNs>& enter) {
  return Replayer(trace, graph, options, enter, nullptr).run();
}

ReplayTimes replay_trace(const Trace& trace, const ReplayGraph& graph,
                         const ReplayOptions& options) {
  ReplayTimes times;
  replay_into(trace, graph, options, times);
  return times;
}

}  // namespace collwrap
