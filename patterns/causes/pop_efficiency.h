// POP efficiencies (POP Centre of Excellence; the same definitions as OTF-CPT) of the region of
// interest. When the program calls MPI_Pcontrol, the region is the union of the intervals in
// which profiling is on: from the Leave of MPI_Pcontrol(level ≠ 0) to the Enter of the next
// MPI_Pcontrol(0) (or of MPI_Finalize), per rank; a program that switches profiling on and off
// several times (once per measured phase) gets the sum of its phases. Otherwise the region runs
// from the Leave of MPI_Init to the Enter of MPI_Finalize on each rank (the start or end of the
// rank's calls when it has none).
//
// Runtime is the sum over intervals of (latest end − earliest begin of that interval across
// ranks), the k-th interval of every rank being taken as the same phase.
//
//   useful time     time outside MPI in the region, per rank (its main thread)
//   LB   = mean(useful) / max(useful)
//   CommE = max(useful) / runtime = SerE × TE
//   SerE = max(useful) / ideal runtime, TE = ideal runtime / runtime
//   PE   = LB × CommE
// The ideal runtime comes from replaying the trace on an ideal network (replay.h): every
// message and collective takes no time, compute segments stay as recorded.
//
// In two steps, so that the processes of a divided analysis can take them apart: what each
// main thread's calls say (pop_locations: the intervals and the compute in them, which no
// replay changes), and the efficiencies from those with a replay's times at the intervals' ends.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "cause_result.h"
#include "location_shares.h"
#include "replay.h"

namespace collwrap {

// One interval of the region of interest on a location, in global call ids: from the Leave of
// begin_call (kNone: the trace's start) to the Enter of end_call (kNone: the Leave of the
// location's last call), with the compute time in it.
struct PopInterval {
  std::uint32_t begin_call = kNone;
  std::uint32_t end_call = kNone;
  TimeNs useful = 0;
};

// What a main thread with calls says of the region of interest: its MPI_Pcontrol intervals
// (none when it never switches profiling on) and MPI_Init..MPI_Finalize. Which count is decided
// over all ranks: the MPI_Pcontrol intervals when any rank has one.
struct PopLocation {
  std::uint32_t loc = 0;
  std::int32_t rank = 0;
  std::uint32_t last_call = 0;  // global id
  std::vector<PopInterval> pcontrol;
  PopInterval init_to_finalize;
};

// The compute segment before each global call (ReplayGraph::segment, or a process's rows).
using SegmentLength = std::function<TimeNs(std::uint32_t call)>;

// Of the main threads with calls among the `at` locations, in location order; `loc_first_call`
// numbers the calls globally.
std::vector<PopLocation> pop_locations(const Trace& trace,
                                       std::span<const std::uint32_t> loc_first_call,
                                       const SegmentLength& segment, const LocationRange& at = {});

// Where the efficiencies read a replay: the Leave (true) or Enter of each global call that ends
// an interval that counts.
std::vector<std::pair<std::uint32_t, bool>> replayed_ends(
    const std::vector<PopLocation>& locations);

// A replay's time at an interval's end: the Leave (leave) or the Enter of a global call.
using ReplayedTime = std::function<TimeNs(std::uint32_t call, bool leave)>;

// The efficiencies of every main thread's `locations` (in location order), from the replays as
// recorded and on an ideal network.
PopEfficiencies pop_efficiencies(const std::vector<PopLocation>& locations, TimeNs trace_begin,
                                 const ReplayedTime& recorded, const ReplayedTime& ideal);

PopEfficiencies pop_efficiencies(const Trace& trace, const ReplayGraph& graph,
                                 const ReplayTimes& recorded, const ReplayTimes& ideal);

}  // namespace collwrap
