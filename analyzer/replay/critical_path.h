// The critical path of a replayed run (Böhme, Geimer, Arnold, Voigtländer and Wolf, "Scalable
// critical-path based performance analysis", IPDPS 2012): the chain of compute segments and
// MPI calls, across locations, that determined when the run ended.
//
// The walk starts at the Leave of the last call to finish and goes backwards. Inside a call
// that waited, the path jumps to the Enter of the call it waited for, on the location that made
// it wait; otherwise it goes on through the call and the compute segment before it on the same
// location. Every nanosecond from the start of the trace to the end is on the path once.
#pragma once

#include <functional>
#include <vector>

#include "replay.h"
#include "replay_slices.h"

namespace collwrap {

// One step of the walk: a call (global id), the part of it on the path, and the compute
// segment before the call (on the path whenever the call's Enter is).
struct CriticalPathStep {
  std::uint32_t call = 0;
  TimeNs call_time = 0;
  TimeNs segment_time = 0;
};

struct CriticalPathTotals {
  TimeNs length = 0;       // sum of every step's two parts; equals the replay's end − trace start
  std::uint32_t hops = 0;  // changes of location
};

// Walks the path, last step first, and hands each step to `visit` as it goes: the steps are
// as many as the calls, so they are summed where they are made instead of stored.
CriticalPathTotals walk_critical_path(const ReplayGraph& graph, const ReplayTimes& times,
                                      const std::function<void(const CriticalPathStep&)>& visit);

// The path as a line through a timeline: one piece per stay on a location, earliest first;
// each piece ends where the next begins (in `times`, trace time).
struct CriticalPathPiece {
  std::uint32_t loc = 0;
  TimeNs from = 0, to = 0;
};

// The same walk over a replay in slices (replay_slices.h), as the processes of a divided
// analysis will go: each slice walks while the path is on the calls it leaves, then hands the
// call the path goes on from to the slice that leaves that one, an earlier slice. A call
// waited for that an earlier slice handed over (a call in flight across the cut) counts with
// the segment length the handover brought. Visits the same steps (global call ids) as
// walk_critical_path over the whole replay.
CriticalPathTotals walk_critical_path_in_slices(
    const std::vector<ReplaySlice>& slices, const SliceCuts& cuts,
    const std::function<void(const CriticalPathStep&)>& visit);

// One slice's stretch of that walk, for the process that holds the slice: from call g
// (global id), while the path is on the calls slice s leaves, adding to `totals`. Returns the
// call the path goes on from, which an earlier slice leaves, or kNone at the start of the run.
std::uint32_t walk_slice_back(const ReplaySlice& here, std::size_t s, const SliceCuts& cuts,
                              std::uint32_t g, CriticalPathTotals& totals,
                              const std::function<void(const CriticalPathStep&)>& visit);

// Gathers the pieces from the steps of walk_critical_path, in the order it visits them.
class CriticalPathPieces {
 public:
  CriticalPathPieces(const ReplayGraph& graph, const ReplayTimes& times)
      : graph_(graph), times_(times) {}
  void add(const CriticalPathStep& step);
  std::vector<CriticalPathPiece> finish();  // earliest first; once, at the end

 private:
  void extend(std::uint32_t loc, TimeNs from, TimeNs to);

  const ReplayGraph& graph_;
  const ReplayTimes& times_;
  std::vector<CriticalPathPiece> latest_first_;
};

}  // namespace collwrap
