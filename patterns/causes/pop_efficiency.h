// POP efficiencies (POP Centre of Excellence; the same definitions as OTF-CPT) of the region of
// interest: from the Leave of MPI_Init to the Enter of MPI_Finalize on each rank (the start or
// end of the rank's calls when it has none).
//
//   useful time     time outside MPI in the region, per rank (its main thread)
//   runtime         latest region end − earliest region start
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
