// A replay in slices of time, one after another: the form in which the processes of a divided
// analysis can replay a trace that none of them holds whole, each its own slice.
//
// A slice is a stretch of consecutive calls on every location. Replaying one needs, of the
// slices before it, only the Enters its calls read: of each location's first call in the
// slice, of the calls its calls wait for, and of the members of the collective instances they
// wait for. A call's Enter is set when the call before it on its location has been left, so it
// belongs to that call's slice; a slice can be replayed after the ones before it when every
// Enter its calls wait for belongs to it or to an earlier one. Cut where the
// recorded Leaves pass given instants, that holds wherever the clock condition does (a call
// cannot be left before the Enters it waits for), so on every trace the clock repair leaves
// without violations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ranges>
#include <span>
#include <vector>

#include "replay.h"
#include "slice_graph.h"

namespace collwrap {

struct SliceCuts {
  std::size_t locations = 0;
  // Row s (s = 0 .. slices): the first global call of slice s on each location; row `slices`
  // holds each location's end.
  std::vector<std::uint32_t> first;

  std::size_t slices() const { return locations ? first.size() / locations - 1 : 0; }
  std::span<const std::uint32_t> row(std::size_t s) const {
    return {first.data() + s * locations, locations};
  }
};

// Cuts location `loc`, whose calls are [first, end) (global ids), at `instants` (ascending):
// slice s > 0 begins at its first call whose Leave (leave_of(g)) is at or after instants[s - 1]
// (a location's Leaves never decrease). Writes the location's column of every row of `cuts`,
// which has instants.size() + 1 slices.
template <typename LeaveOf>
void cut_location(SliceCuts& cuts, std::size_t loc, std::uint32_t first, std::uint32_t end,
                  std::span<const TimeNs> instants, LeaveOf&& leave_of) {
  const std::size_t slices = instants.size() + 1;
  cuts.first[loc] = first;
  for (std::size_t s = 1; s < slices; ++s) {
    const std::uint32_t from = s > 1 ? cuts.first[(s - 1) * cuts.locations + loc] : first;
    cuts.first[s * cuts.locations + loc] = *std::ranges::partition_point(
        std::views::iota(from, end),
        [&](std::uint32_t g) { return leave_of(g) < instants[s - 1]; });
  }
  cuts.first[slices * cuts.locations + loc] = end;
}

// `slices` slices of about equal numbers of calls: each location is cut at its first call whose
// recorded Leave is at or after the instants that divide all calls' Leaves into that many
// parts.
SliceCuts cut_at_recorded_leaves(const Trace& trace, const ReplayGraph& graph, std::size_t slices);

// The same at the Leaves of a replay (in which a location's Leaves never decrease either): the
// cut of the steps that go from the last wait to the first, such as the delay costs.
SliceCuts cut_at_replayed_leaves(const ReplayGraph& graph, const ReplayTimes& times,
                                 std::size_t slices);

// The slice of every call, by global id.
std::vector<std::uint32_t> slice_of_calls(const ReplayGraph& graph, const SliceCuts& cuts);

// The slice call g's Enter (and the compute segment before it) belongs to: that of the call
// before it on its location, where a replay enters g; the first for a location's first call.
inline std::uint32_t entered_in(const ReplayGraph& graph, const std::vector<std::uint32_t>& slice,
                                std::uint32_t g) {
  return g == graph.loc_first_call[graph.call_loc[g]] ? 0 : slice[g - 1];
}

// Whether every Enter a call waits for (a gate, or a member of a collective instance it waits
// for) belongs to the call's slice or an earlier one: then the slices replay one after another.
bool replays_slice_by_slice(const ReplayGraph& graph, const SliceCuts& cuts);

// One slice of a sliced replay, as the process that replays it will hold it: its own graph
// (slice_graph.h) and the replay's times of the graph's calls (local ids). Not copied: the
// times point at the graph.
struct ReplaySlice {
  SliceGraph part;
  ReplayTimes times;
  ReplaySlice() = default;
  ReplaySlice(const ReplaySlice&) = delete;
  ReplaySlice& operator=(const ReplaySlice&) = delete;
};

// The Enters of calls one slice hands the next (global id, Enter), by call.
using SliceHandover = std::vector<std::pair<std::uint32_t, TimeNs>>;

// Replays one slice from its own graph (here.part) and `in`, what the slice before handed
// over, into here.times, and returns the Enters of `hand_on` (global ids of calls the slice
// holds) for the next. Scaled segments are by global call.
SliceHandover replay_slice(ReplaySlice& here, const ReplayOptions& options, const SliceHandover& in,
                           std::span<const std::uint32_t> hand_on);
// The same into `times`, for replays whose times are kept apart from the slice's; with
// `schedule`, the order in which it processed the calls is kept there.
SliceHandover replay_slice(const SliceGraph& part, ReplayTimes& times, const ReplayOptions& options,
                           const SliceHandover& in, std::span<const std::uint32_t> hand_on,
                           ReplaySchedule* schedule = nullptr);
// The same for replays as recorded whose ends alone are wanted (what-if questions'), up to
// kReplayLanes in one pass, which shares the work of finding the next call: lane i with the
// changed segments scaled[i] (by global call), from in[i], its Enters into enter[i] and the
// slice's latest Leave into ends[i]. Whom each call waited for is not kept, which spares a
// write per call and 4 bytes per call of the slice. Returns each lane's Enters of `hand_on`.
std::vector<SliceHandover> replay_slice_ends(const SliceGraph& part,
                                             std::span<const std::span<const ScaledSegment>> scaled,
                                             std::span<const SliceHandover> in,
                                             std::span<const std::uint32_t> hand_on,
                                             std::span<TimeNs> ends,
                                             std::span<std::vector<TimeNs>> enter);

// The scaled segments of `scaled` (by global call) that the slice's own calls begin, by local
// call.
std::vector<ScaledSegment> scaled_in_slice(const SliceGraph& part,
                                           std::span<const ScaledSegment> scaled);

// The replay of `options`, slice after slice, each from its own graph and only what the slices
// before hand on. Requires replays_slice_by_slice.
std::vector<ReplaySlice> replay_slices(const ReplayGraph& graph, const SliceCuts& cuts,
                                       const ReplayOptions& options = {});

// The same, its times gathered by global call: those of replay_trace.
ReplayTimes replay_in_slices(const ReplayGraph& graph, const SliceCuts& cuts,
                             const ReplayOptions& options = {});

}  // namespace collwrap
