// The critical path of a replayed run (Böhme, Geimer, Arnold, Voigtländer and Wolf, "Scalable
// critical-path based performance analysis", IPDPS 2012): the chain of compute segments and
// MPI calls, across locations, that determined when the run ended.
//
// The walk starts at the Leave of the last call to finish and goes backwards. Inside a call
// that waited, the path jumps to the Enter of the call it waited for, on the location that made
// it wait; otherwise it goes on through the call and the compute segment before it on the same
// location. Every nanosecond from the start of the trace to the end is on the path once.
#pragma once

#include <vector>

#include "replay.h"

namespace collwrap {

struct CriticalPath {
  // Steps, last first: global call id, the part of the call on the path, and the compute
  // segment before the call (on the path whenever the call's Enter is).
  std::vector<std::uint32_t> calls;
  std::vector<TimeNs> call_time;
  std::vector<TimeNs> segment_time;
  TimeNs length = 0;       // sum of both; equals the replay's end − start of the trace
  std::uint32_t hops = 0;  // changes of location
};

CriticalPath critical_path(const Trace& trace, const ReplayGraph& graph, const ReplayTimes& times);

// The path as a line through a timeline: one piece per stay on a location, earliest first;
// each piece ends where the next begins (in `times`, trace time).
struct CriticalPathPiece {
  std::uint32_t loc = 0;
  TimeNs from = 0, to = 0;
};

std::vector<CriticalPathPiece> critical_path_pieces(const ReplayGraph& graph,
                                                    const ReplayTimes& times,
                                                    const CriticalPath& path);

}  // namespace collwrap
