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
#pragma once

#include "cause_result.h"
#include "replay.h"

namespace collwrap {

PopEfficiencies pop_efficiencies(const Trace& trace, const ReplayGraph& graph,
                                 const ReplayTimes& recorded, const ReplayTimes& ideal);

}  // namespace collwrap
