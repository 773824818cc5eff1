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
  std::vector<TimeNs> recorded;     // as recorded
  std::vector<std::uint32_t> last_call;
};

class Replayer {
 public:
  Replayer(const Trace& trace, const ReplayGraph& graph, const ReplayOptions& options,
           ReplayTimes& out)
      : trace_(trace), graph_(graph), options_(options), out_(out) {
    const std::size_t n = graph.calls();
    // Only the Enters are read before this replay writes them (kUnset: not entered yet); every
    // call's Leave and waited_for are written when it is processed, and every call is.
    out.enter.assign(n, kUnset);
    out.leave.resize(n);
    out.waited_for.resize(n);
    out.end = trace.begin;
    out.broken_gates = 0;
    const std::size_t instances = graph.member_first.empty() ? 0 : graph.member_first.size() - 1;
    colls_.next.assign(graph.member_first.begin(), graph.member_first.begin() + instances);
    colls_.latest.assign(instances, kUnset);
    colls_.recorded.assign(instances, kUnset);
    colls_.last_call.assign(instances, kNone);
  }

  void run() {
    const std::uint32_t locations = static_cast<std::uint32_t>(trace_.locations.size());
    std::vector<std::uint32_t> cursor(locations, 0);
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
        while (cursor[loc] < count) {
          if (!advance(first + cursor[loc], force)) break;
          force = false;
          progress = true;
          ++cursor[loc];
        }
        if (cursor[loc] < count) active[kept++] = loc;
      }
      active.resize(kept);
      force = !progress;
    }
    // A location's Leaves never decrease: its last call ends it.
    for (std::uint32_t loc = 0; loc < locations; ++loc)
      if (graph_.loc_first_call[loc + 1] > graph_.loc_first_call[loc])
        out_.end = std::max(out_.end, out_.leave[graph_.loc_first_call[loc + 1] - 1]);
  }

 private:
  // Processes call g; false when one of its gates is still closed.
  bool advance(std::uint32_t g, bool force) {
    if (out_.enter[g] == kUnset) {
      const std::uint32_t i = graph_.local(g);
      const TimeNs previous = i == 0 ? trace_.begin : out_.leave[g - 1];
      TimeNs segment = recorded_segment(trace_, graph_, g);
      // Rounded to the nearest ns; a factor of 1 leaves the length as it is.
      if (!options_.segment_scale.empty() && options_.segment_scale[g] != 1.0f)
        segment = static_cast<TimeNs>(
            static_cast<double>(segment) * static_cast<double>(options_.segment_scale[g]) + 0.5);
      out_.enter[g] = previous + segment;
    }
    TimeNs latest = kUnset, latest_recorded = kUnset;
    std::uint32_t latest_call = kNone;
    for (const std::uint32_t gate : graph_.gates_of(g)) {
      TimeNs t, recorded;
      std::uint32_t call;
      if (gate & kCollectiveGate) {
        const std::uint32_t instance = gate & ~kCollectiveGate;
        if (!collective_ready(instance)) {
          if (force) {
            ++out_.broken_gates;
            continue;
          }
          return false;
        }
        t = colls_.latest[instance];
        recorded = colls_.recorded[instance];
        call = colls_.last_call[instance];
      } else {
        if (out_.enter[gate] == kUnset) {
          if (force) {
            ++out_.broken_gates;
            continue;
          }
          return false;
        }
        t = out_.enter[gate];
        recorded = recorded_enter(trace_, graph_, gate);
        call = gate;
      }
      if (t > latest) latest = t, latest_call = call;
      latest_recorded = std::max(latest_recorded, recorded);
    }
    TimeNs own = 0;
    if (options_.network == NetworkModel::AsRecorded) {
      const TimeNs from = std::max(recorded_enter(trace_, graph_, g), latest_recorded);
      own = std::max<TimeNs>(0, recorded_leave(trace_, graph_, g) - from);
    }
    TimeNs start = out_.enter[g];
    out_.waited_for[g] = kNone;
    if (latest_call != kNone && latest > start && latest_call != g) {
      start = latest;
      out_.waited_for[g] = latest_call;
    }
    out_.leave[g] = start + own;
    return true;
  }

  bool collective_ready(std::uint32_t instance) {
    const std::uint32_t end = graph_.member_first[instance + 1];
    std::uint32_t& next = colls_.next[instance];
    for (; next < end; ++next) {
      const std::uint32_t call = graph_.member_calls[next];
      if (call == kNone) continue;
      const TimeNs t = out_.enter[call];
      if (t == kUnset) return false;
      if (t > colls_.latest[instance]) {
        colls_.latest[instance] = t;
        colls_.last_call[instance] = call;
      }
      colls_.recorded[instance] =
          std::max(colls_.recorded[instance], recorded_enter(trace_, graph_, call));
    }
    return colls_.last_call[instance] != kNone;
  }

  const Trace& trace_;
  const ReplayGraph& graph_;
  const ReplayOptions& options_;
  ReplayTimes& out_;
  CollectiveState colls_;
};

}  // namespace

void replay_into(const Trace& trace, const ReplayGraph& graph, const ReplayOptions& options,
                 ReplayTimes& times) {
  Replayer(trace, graph, options, times).run();
}

ReplayTimes replay_trace(const Trace& trace, const ReplayGraph& graph,
                         const ReplayOptions& options) {
  ReplayTimes times;
  replay_into(trace, graph, options, times);
  return times;
}

}  // namespace collwrap
