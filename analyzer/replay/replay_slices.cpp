#include "replay_slices.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "replayer.h"

namespace collwrap {
namespace {

using replay_engine::Handover;
using replay_engine::kUnset;
using replay_engine::Replayer;

// The calls whose Enters each slice hands the next, by boundary (after slice s). An Enter goes
// on from the slice it belongs to until the last slice that reads it: its own (the slice that
// leaves the call), those of the calls that wait for it, and those of the calls that wait for
// a collective instance it is a member of.
std::vector<std::vector<std::uint32_t>> plan_handovers(const ReplayGraph& graph,
                                                       const SliceCuts& cuts,
                                                       const std::vector<std::uint32_t>& slice) {
  std::vector<std::uint32_t> last_read(slice);
  std::vector<std::uint32_t> instance_last(graph.instances(), 0);
  for (std::uint32_t g = 0; g < graph.calls(); ++g)
    for (const std::uint32_t gate : graph.gates_of(g)) {
      std::uint32_t& last =
          gate & kCollectiveGate ? instance_last[gate & ~kCollectiveGate] : last_read[gate];
      last = std::max(last, slice[g]);
    }
  for (std::uint32_t i = 0; i < instance_last.size(); ++i)
    for (const std::uint32_t m : graph.members_of(i))
      if (m != kNone) last_read[m] = std::max(last_read[m], instance_last[i]);
  std::vector<std::vector<std::uint32_t>> handed(cuts.slices() > 0 ? cuts.slices() - 1 : 0);
  for (std::uint32_t g = 0; g < graph.calls(); ++g)
    for (std::uint32_t s = entered_in(graph, slice, g); s < last_read[g]; ++s)
      handed[s].push_back(g);
  return handed;
}

}  // namespace

std::vector<std::uint32_t> slice_of_calls(const ReplayGraph& graph, const SliceCuts& cuts) {
  std::vector<std::uint32_t> slice(graph.calls());
  for (std::size_t s = 0; s < cuts.slices(); ++s)
    for (std::size_t loc = 0; loc < cuts.locations; ++loc)
      std::fill(slice.begin() + cuts.row(s)[loc], slice.begin() + cuts.row(s + 1)[loc],
                static_cast<std::uint32_t>(s));
  return slice;
}

namespace {

// Cuts each location at its first call whose Leave (leave_of) is at or after the instants that
// divide all calls' Leaves into `slices` parts; a location's Leaves never decrease.
template <typename LeaveOf>
SliceCuts cut_at_leaves(const ReplayGraph& graph, std::size_t slices, LeaveOf&& leave_of) {
  if (slices == 0) throw std::invalid_argument("slices: none asked for");
  SliceCuts cuts;
  cuts.locations = graph.loc_first_call.size() - 1;
  std::vector<TimeNs> leaves(graph.calls());
  for (std::uint32_t g = 0; g < graph.calls(); ++g) leaves[g] = leave_of(g);
  std::vector<TimeNs> instants;
  for (std::size_t s = 1; s < slices && !leaves.empty(); ++s) {
    const auto nth = leaves.begin() + static_cast<std::ptrdiff_t>(s * leaves.size() / slices);
    std::nth_element(leaves.begin(), nth, leaves.end());
    instants.push_back(*nth);
  }
  instants.resize(slices - 1, instants.empty() ? 0 : instants.back());
  std::sort(instants.begin(), instants.end());
  cuts.first.resize((slices + 1) * cuts.locations);
  for (std::uint32_t loc = 0; loc < cuts.locations; ++loc)
    cut_location(cuts, loc, graph.loc_first_call[loc], graph.loc_first_call[loc + 1], instants,
                 leave_of);
  return cuts;
}

}  // namespace

SliceCuts cut_at_recorded_leaves(const Trace& trace, const ReplayGraph& graph, std::size_t slices) {
  return cut_at_leaves(graph, slices,
                       [&](std::uint32_t g) { return recorded_leave(trace, graph, g); });
}

SliceCuts cut_at_replayed_leaves(const ReplayGraph& graph, const ReplayTimes& times,
                                 std::size_t slices) {
  return cut_at_leaves(graph, slices, [&](std::uint32_t g) { return times.leave(g); });
}

bool replays_slice_by_slice(const ReplayGraph& graph, const SliceCuts& cuts) {
  const std::vector<std::uint32_t> slice = slice_of_calls(graph, cuts);
  std::vector<std::uint32_t> latest_member(graph.instances(), 0);
  for (std::uint32_t i = 0; i < latest_member.size(); ++i)
    for (const std::uint32_t m : graph.members_of(i))
      if (m != kNone) latest_member[i] = std::max(latest_member[i], entered_in(graph, slice, m));
  for (std::uint32_t g = 0; g < graph.calls(); ++g)
    for (const std::uint32_t gate : graph.gates_of(g)) {
      const std::uint32_t entered = gate & kCollectiveGate ? latest_member[gate & ~kCollectiveGate]
                                                           : entered_in(graph, slice, gate);
      if (entered > slice[g]) return false;
    }
  return true;
}

SliceHandover replay_slice(ReplaySlice& here, const ReplayOptions& options, const SliceHandover& in,
                           std::span<const std::uint32_t> hand_on) {
  return replay_slice(here.part, here.times, options, in, hand_on);
}

std::vector<ScaledSegment> scaled_in_slice(const SliceGraph& part,
                                           std::span<const ScaledSegment> scaled) {
  std::vector<ScaledSegment> here;
  for (const ScaledSegment& s : scaled)
    if (const std::uint32_t c = part.local(s.call);
        c != kNone && c < part.graph.loc_first_call.back())
      here.push_back({c, s.factor});
  return here;
}

namespace {

// L replays of one slice in one pass, lane i from in[i] into enter[i], and into `full` when
// given (L = 1: a full replay's times); lane i's latest Leave into ends[i]. Returns each lane's
// Enters of `hand_on`.
template <std::size_t L>
std::vector<SliceHandover> replay_slice_lanes(
    const SliceGraph& part, std::span<const std::span<const ScaledSegment>> scaled,
    NetworkModel network, std::span<const SliceHandover> in, std::span<const std::uint32_t> hand_on,
    std::span<TimeNs> ends, std::span<std::vector<TimeNs>> enter, ReplayTimes* full,
    ReplaySchedule* schedule = nullptr) {
  std::array<std::vector<ScaledSegment>, L> scaled_here;
  std::array<std::span<const ScaledSegment>, L> lanes;
  for (std::size_t lane = 0; lane < L; ++lane)
    lanes[lane] = scaled_here[lane] = scaled_in_slice(part, scaled[lane]);
  // Every lane is handed the Enters of the same calls (those the slice before hands on).
  Handover<L> handed;
  handed.reserve(in[0].size());
  for (std::size_t k = 0; k < in[0].size(); ++k) {
    replay_engine::LaneTimes<L> times;
    for (std::size_t lane = 0; lane < L; ++lane) {
      if (in[lane].size() != in[0].size() || in[lane][k].first != in[0][k].first)
        throw std::invalid_argument("replay_slice_ends: the lanes were handed different calls");
      times[lane] = in[lane][k].second;
    }
    handed.push_back({part.local(in[0][k].first), times});
  }
  Replayer<L> replayer(part.graph, network, lanes, enter.template first<L>(), full);
  if (schedule) replayer.record_into(*schedule);
  const replay_engine::LaneTimes<L> end = replayer.run_slice(part.from, part.to, handed);
  std::copy_n(end.begin(), L, ends.begin());
  std::vector<std::uint32_t> local_calls;
  for (const std::uint32_t c : hand_on) local_calls.push_back(part.local(c));
  std::vector<SliceHandover> out(L);
  for (const auto& [call, times] : replayer.hand_over(local_calls))
    for (std::size_t lane = 0; lane < L; ++lane)
      out[lane].emplace_back(part.global[call], times[lane]);
  return out;
}

}  // namespace

SliceHandover replay_slice(const SliceGraph& part, ReplayTimes& times, const ReplayOptions& options,
                           const SliceHandover& in, std::span<const std::uint32_t> hand_on,
                           ReplaySchedule* schedule) {
  const std::array<std::span<const ScaledSegment>, 1> scaled{options.scaled_segments};
  return std::move(replay_slice_lanes<1>(part, scaled, options.network, std::span(&in, 1), hand_on,
                                         std::span(&times.end, 1), std::span(&times.enter, 1),
                                         &times, schedule)[0]);
}

std::vector<SliceHandover> replay_slice_ends(const SliceGraph& part,
                                             std::span<const std::span<const ScaledSegment>> scaled,
                                             std::span<const SliceHandover> in,
                                             std::span<const std::uint32_t> hand_on,
                                             std::span<TimeNs> ends,
                                             std::span<std::vector<TimeNs>> enter) {
  if (in.size() != scaled.size() || ends.size() != scaled.size() || enter.size() < scaled.size())
    throw std::invalid_argument(
        "replay_slice_ends: a handover, an end and an Enter table per list of scaled segments");
  if (scaled.empty()) return {};
  return replay_engine::with_lanes(scaled.size(), "replay_slice_ends", [&](auto lanes) {
    return replay_slice_lanes<decltype(lanes)::value>(part, scaled, NetworkModel::AsRecorded, in,
                                                      hand_on, ends, enter, nullptr);
  });
}

std::vector<ReplaySlice> replay_slices(const ReplayGraph& graph, const SliceCuts& cuts,
                                       const ReplayOptions& options) {
  const std::vector<std::uint32_t> slice = slice_of_calls(graph, cuts);
  const std::vector<std::vector<std::uint32_t>> plan = plan_handovers(graph, cuts, slice);
  std::vector<ReplaySlice> slices(cuts.slices());
  SliceHandover handed;  // by global id
  for (std::size_t s = 0; s < cuts.slices(); ++s) {
    // Each slice from its own graph and tables, as each process of a divided analysis will
    // hold them: only what is handed over comes from the slices before.
    ReplaySlice& here = slices[s];
    here.part = cut_slice_graph(graph, cuts, s, s > 0 ? plan[s - 1] : std::vector<std::uint32_t>{});
    handed = replay_slice(here, options, handed,
                          s + 1 < cuts.slices() ? plan[s] : std::vector<std::uint32_t>{});
  }
  return slices;
}

ReplayTimes replay_in_slices(const ReplayGraph& graph, const SliceCuts& cuts,
                             const ReplayOptions& options) {
  ReplayTimes times;
  times.enter.assign(graph.calls(), kUnset);
  times.waited_for.assign(graph.calls(), kNone);
  times.graph = &graph;
  times.own_costs = options.network == NetworkModel::AsRecorded;
  times.end = graph.begin;
  for (const ReplaySlice& here : replay_slices(graph, cuts, options)) {
    const SliceGraph& part = here.part;
    times.end = std::max(times.end, here.times.end);
    times.broken_gates += here.times.broken_gates;
    for (std::uint32_t loc = 0; loc < cuts.locations; ++loc)
      for (std::uint32_t c = part.from[loc]; c < part.to[loc]; ++c) {
        const std::uint32_t waited = here.times.waited_for[c];
        times.enter[part.global[c]] = here.times.enter[c];
        times.waited_for[part.global[c]] = waited == kNone ? kNone : part.global[waited];
      }
  }
  return times;
}

}  // namespace collwrap
