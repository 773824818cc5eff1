// The replay engine behind replay.h and replay_slices.h: L replays of one graph in one pass,
// over every call or over one slice of time. Internal to analyzer/replay.
#pragma once

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "replay.h"

namespace collwrap::replay_engine {

// Calls run(std::integral_constant<std::size_t, L>{}) with L = lanes, 1 to kReplayLanes: the
// lane count of a pass is a template argument of the engine. `what` names the caller in the
// error for more lanes.
template <typename Run>
decltype(auto) with_lanes(std::size_t lanes, const char* what, Run&& run) {
  static_assert(kReplayLanes == 2);
  switch (lanes) {
    case 1:
      return run(std::integral_constant<std::size_t, 1>{});
    case 2:
      return run(std::integral_constant<std::size_t, 2>{});
    default:
      throw std::invalid_argument(std::string(what) + ": more lanes than kReplayLanes");
  }
}

constexpr TimeNs kUnset = std::numeric_limits<TimeNs>::min();

// One time per lane (per replay of a pass).
template <std::size_t L>
using LaneTimes = std::array<TimeNs, L>;

// Latest member Enter of each collective instance, found incrementally: each member is looked
// at once, however often a blocked location asks.
template <std::size_t L>
struct CollectiveState {
  std::vector<std::uint32_t> next;       // next member to look at
  std::vector<TimeNs> latest;            // replayed, L per instance
  std::vector<std::uint32_t> last_call;  // whose Enter that is, L per instance; full replays'
};

// What the slices of a sliced replay (replay_slices.h) before a slice hand it: the Enters it or
// a later slice reads of calls entered before (each location's first call of the slice among
// them), by call. A collective instance's latest Enter is found again from its members'.
template <std::size_t L>
using Handover = std::vector<std::pair<std::uint32_t, LaneTimes<L>>>;

// Where one location of a replay stands. Written at every call, and for a trace of few
// locations a few bytes in all: each location's on its own cache line, so that replays running
// side by side on other cores do not stall each other by writing into one line (which had made
// a whole root-cause analysis of a four-rank trace take twice the CPU time, on some runs only,
// as the heap happened to place the replays' tables).
template <std::size_t L>
struct alignas(64) LocationCursor {
  LaneTimes<L> last_leave{};                 // the Leave of its latest processed call
  std::array<std::size_t, L> next_scaled{};  // its next entry in each lane's scaled segments
  std::uint32_t next_call = 0;               // its next call to process, from its first
};

// L replays in one pass, lane by lane. Every call's Enters are kept (a table per lane), since
// the gates of later calls read them; whom a call waited for (from which its Leave
// follows) only in full replays, whose times are kept whole: a what-if question asks for the
// run's end alone, and the less a replay writes, the faster it runs.
//
// A replay over every call runs from the start (run()); a slice of a sliced replay runs from
// what the slices before handed over (run_slice()).
template <std::size_t L>
class Replayer {
 public:
  // L replays on `network`, each with its scaled segments, their Enters in `enter`; with
  // `full` (L = 1), a full replay into it.
  Replayer(const ReplayGraph& graph, NetworkModel network,
           std::span<const std::span<const ScaledSegment>, L> scaled,
           std::span<std::vector<TimeNs>, L> enter, ReplayTimes* full)
      : graph_(graph), scaled_(scaled) {
    static_assert(L >= 1 && L <= kReplayLanes);
    own_costs_.fill(network == NetworkModel::AsRecorded);
    if (full) full_[0] = full;
    std::array<std::vector<TimeNs>*, L> tables;
    for (std::size_t lane = 0; lane < L; ++lane) tables[lane] = &enter[lane];
    start(tables);
  }

  // L full replays without scaled segments, lane i's on networks[i] into full[i]: the replay
  // as recorded and the one on an ideal network in one pass.
  Replayer(const ReplayGraph& graph, std::array<NetworkModel, L> networks,
           std::array<ReplayTimes*, L> full)
      : graph_(graph), scaled_(no_scaled_) {
    std::array<std::vector<TimeNs>*, L> tables;
    for (std::size_t lane = 0; lane < L; ++lane) {
      own_costs_[lane] = networks[lane] == NetworkModel::AsRecorded;
      full_[lane] = full[lane];
      tables[lane] = &full[lane]->enter;
    }
    start(tables);
  }

 private:
  // Sets the replay up with each lane's Enters in tables[lane].
  void start(const std::array<std::vector<TimeNs>*, L>& tables) {
    const ReplayGraph& graph = graph_;
    const std::size_t n = graph.calls();
    full_replay_ = full_[0] != nullptr;
    // Only the Enters are read before this replay writes them (kUnset: not entered yet); every
    // call's waited_for is written when it is processed, and every call is.
    for (std::size_t lane = 0; lane < L; ++lane) {
      tables[lane]->assign(n, kUnset);
      enter_[lane] = tables[lane]->data();
      if (ReplayTimes* full = full_[lane]) {
        full->waited_for.resize(n);
        full->broken_gates = 0;
        full->graph = &graph;
        full->own_costs = own_costs_[lane];
      }
    }
    LocationCursor<L> start;
    start.last_leave.fill(graph.begin);
    at_.assign(graph.locations(), start);
    limit_.resize(at_.size());
    for (std::size_t loc = 0; loc < at_.size(); ++loc) {
      limit_[loc] = graph.loc_first_call[loc + 1] - graph.loc_first_call[loc];
      seek_scaled(loc, graph.loc_first_call[loc]);
    }
    const std::size_t instances = graph.instances();
    colls_.next.assign(graph.member_first.begin(), graph.member_first.begin() + instances);
    colls_.latest.assign(instances * L, kUnset);
    if (full_replay_) colls_.last_call.assign(instances * L, kNone);
  }

 public:
  // Keeps the order in which run() and run_slice() process the calls in `schedule`.
  void record_into(ReplaySchedule& schedule) {
    record_ = &schedule;
    record_->reset(at_.size());
  }

  // The latest Leave of each lane: a location's Leaves never decrease, so its last call ends it.
  // Each location runs until a gate of its next call is closed, round after round; in a round
  // where none moves, the first blocked location's closed gates are ignored (broken).
  LaneTimes<L> run() {
    const auto locations = static_cast<std::uint32_t>(graph_.locations());
    std::vector<std::uint32_t> active;
    for (std::uint32_t loc = 0; loc < locations; ++loc) {
      if (at_[loc].next_call < limit_[loc])
        active.push_back(loc);
      else
        enter_next(loc);
    }
    bool force = false;  // set when no location can move: the next blocked gate is ignored
    while (!active.empty()) {
      bool progress = false;
      std::size_t kept = 0;
      for (const std::uint32_t loc : active) {
        const std::uint32_t first = graph_.loc_first_call[loc];
        const std::uint32_t limit = limit_[loc];
        LocationCursor<L>& at = at_[loc];
        const std::uint32_t before = at.next_call;
        while (at.next_call < limit) {
          if (!advance(first + at.next_call, at, force)) break;
          force = false;
          progress = true;
          ++at.next_call;
        }
        if (record_ && at.next_call > before) record_->add_run(loc, at.next_call - before);
        if (at.next_call < limit)
          active[kept++] = loc;
        else
          enter_next(loc);
      }
      active.resize(kept);
      force = !progress;
    }
    LaneTimes<L> end;
    end.fill(graph_.begin);
    for (const LocationCursor<L>& at : at_)
      for (std::size_t lane = 0; lane < L; ++lane)
        end[lane] = std::max(end[lane], at.last_leave[lane]);
    return end;
  }

  // Replays the calls [from[loc], to[loc]) of every location (global ids) after taking over
  // `in`, what the slices before handed over (nothing for the first). Each location's call
  // `to` is entered too, as soon as the one before is left, as in a whole replay: calls of
  // this slice may wait for it. Returns the latest Leave of each lane in this slice.
  LaneTimes<L> run_slice(std::span<const std::uint32_t> from, std::span<const std::uint32_t> to,
                         const Handover<L>& in) {
    for (const auto& [call, times] : in)
      for (std::size_t lane = 0; lane < L; ++lane) enter_[lane][call] = times[lane];
    for (std::size_t loc = 0; loc < at_.size(); ++loc) {
      const std::uint32_t first = graph_.loc_first_call[loc];
      at_[loc].next_call = from[loc] - first;
      limit_[loc] = to[loc] - first;
      // A slice's first call was entered by the slice before: the scaled segments from the
      // one after it.
      const bool entered =
          from[loc] < graph_.loc_first_call[loc + 1] && enter_[0][from[loc]] != kUnset;
      seek_scaled(loc, from[loc] + entered);
    }
    return run();
  }

  // The Enters of `calls`, for the slices after this one.
  Handover<L> hand_over(std::span<const std::uint32_t> calls) const {
    Handover<L> out;
    out.reserve(calls.size());
    for (const std::uint32_t call : calls) {
      LaneTimes<L> times;
      for (std::size_t lane = 0; lane < L; ++lane) times[lane] = enter_[lane][call];
      out.emplace_back(call, times);
    }
    return out;
  }

 private:
  // Each lane's cursor into its scaled segments at the first at or after call g of `loc`.
  void seek_scaled(std::size_t loc, std::uint32_t g) {
    for (std::size_t lane = 0; lane < L; ++lane) {
      const std::span<const ScaledSegment> list = scaled_[lane];
      at_[loc].next_scaled[lane] = static_cast<std::size_t>(
          std::lower_bound(list.begin(), list.end(), g,
                           [](const ScaledSegment& s, std::uint32_t c) { return s.call < c; }) -
          list.begin());
    }
  }

  // Enters the call after the last one processed on `loc`, if the location has one and it is
  // not entered yet: the end of a slice.
  void enter_next(std::uint32_t loc) {
    const std::uint32_t g = graph_.loc_first_call[loc] + at_[loc].next_call;
    if (g < graph_.loc_first_call[loc + 1] && enter_[0][g] == kUnset) enter(g, at_[loc]);
  }

  // Processes call g of the location that stands at `at`; false when one of its gates is
  // still closed (ignored with `force`).
  bool advance(std::uint32_t g, LocationCursor<L>& at, bool force) {
    if (enter_[0][g] == kUnset) enter(g, at);
    LaneTimes<L> latest;
    latest.fill(kUnset);
    std::array<std::uint32_t, L> latest_call;  // full replays': whose Enter latest[lane] is
    latest_call.fill(kNone);
    std::uint32_t gate_index = 0;
    for (const std::uint32_t gate : graph_.gates_of(g)) {
      LaneTimes<L> t;
      const bool collective = gate & kCollectiveGate;
      const std::uint32_t instance = gate & ~kCollectiveGate;
      const std::uint32_t index = gate_index++;
      if (collective) {
        if (!collective_ready(instance)) {
          if (force) {
            broken(g, index);
            continue;
          }
          return false;
        }
        std::copy_n(&colls_.latest[std::size_t{instance} * L], L, t.begin());
      } else {
        if (enter_[0][gate] == kUnset) {
          if (force) {
            broken(g, index);
            continue;
          }
          return false;
        }
        for (std::size_t lane = 0; lane < L; ++lane) t[lane] = enter_[lane][gate];
      }
      if (full_replay_)
        for (std::size_t lane = 0; lane < L; ++lane)
          if (t[lane] > latest[lane])
            latest_call[lane] =
                collective ? colls_.last_call[std::size_t{instance} * L + lane] : gate;
      for (std::size_t lane = 0; lane < L; ++lane) latest[lane] = std::max(latest[lane], t[lane]);
    }
    // A call that entered after its gates opened (or is itself the latest member of its
    // collective) waits for none of them.
    const TimeNs own = graph_.own_cost(g);
    for (std::size_t lane = 0; lane < L; ++lane)
      at.last_leave[lane] = std::max(enter_[lane][g], latest[lane]) + (own_costs_[lane] ? own : 0);
    if (full_replay_)
      for (std::size_t lane = 0; lane < L; ++lane)
        full_[lane]->waited_for[g] = latest[lane] > enter_[lane][g] ? latest_call[lane] : kNone;
    return true;
  }

  // Sets the Enter of call g, the next of the location that stands at `at`.
  void enter(std::uint32_t g, LocationCursor<L>& at) {
    const TimeNs segment = graph_.segment(g);
    for (std::size_t lane = 0; lane < L; ++lane) {
      TimeNs length = segment;
      const std::span<const ScaledSegment> list = scaled_[lane];
      if (std::size_t& next = at.next_scaled[lane]; next < list.size() && list[next].call == g)
        length = list[next++].of(segment);
      enter_[lane][g] = at.last_leave[lane] + length;
    }
  }

  void broken() {
    if (full_replay_)
      for (ReplayTimes* full : full_) ++full->broken_gates;
  }
  // The same, kept in the schedule being recorded.
  void broken(std::uint32_t g, std::uint32_t gate_index) {
    broken();
    if (record_) record_->broken.push_back({g, gate_index});
  }

  bool collective_ready(std::uint32_t instance) {
    const std::uint32_t end = graph_.member_first[instance + 1];
    std::uint32_t& next = colls_.next[instance];
    TimeNs* const latest = &colls_.latest[std::size_t{instance} * L];
    for (; next < end; ++next) {
      const std::uint32_t call = graph_.member_calls[next];
      if (call == kNone) continue;
      if (enter_[0][call] == kUnset) return false;
      if (full_replay_)
        for (std::size_t lane = 0; lane < L; ++lane)
          if (enter_[lane][call] > latest[lane])
            colls_.last_call[std::size_t{instance} * L + lane] = call;
      for (std::size_t lane = 0; lane < L; ++lane)
        latest[lane] = std::max(latest[lane], enter_[lane][call]);
    }
    return latest[0] != kUnset;  // some member was entered
  }

  const ReplayGraph& graph_;
  std::array<std::span<const ScaledSegment>, L> no_scaled_{};  // of full replays: none scaled
  const std::span<const std::span<const ScaledSegment>, L> scaled_;
  std::array<bool, L> own_costs_{};     // each lane's: its network has the calls' own costs
  std::array<TimeNs*, L> enter_{};      // each lane's Enters, by call
  std::array<ReplayTimes*, L> full_{};  // full replays' times, by lane (every lane or none)
  bool full_replay_ = false;
  std::vector<LocationCursor<L>> at_;  // by location
  std::vector<std::uint32_t> limit_;   // by location: its calls to process, from its first
  CollectiveState<L> colls_;
  ReplaySchedule* record_ = nullptr;  // where the order of the calls is kept, if anywhere
};

}  // namespace collwrap::replay_engine
