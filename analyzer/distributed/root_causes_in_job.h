// The root-cause analysis of a divided analysis, over the processes of the job: the replays in
// slices of time (sliced_replay_in_job.h), the POP efficiencies, the critical path, the delay
// costs (sliced_delay_in_job.h), the candidates summed along the processes in the order the
// analyzer alone sums them (cause_candidates.h), each cause's fix found among the calls each
// process holds, and the what-if replays pipelined through the processes. The result is the
// analyzer alone's (root_causes.h), but for the critical path's pieces for the HTML timeline,
// which a job does not draw.
#pragma once

#include <optional>

#include "analysis_in_job.h"
#include "root_causes.h"

namespace collwrap {

struct JobCauses {
  // The clock condition does not allow the run to be cut into slices (a trace whose clocks are
  // not repaired): nothing was analyzed, alike on every process.
  bool refused = false;
  std::optional<CauseAnalysis> analysis;  // on process 0
};

// Every process of the job, with its share (hold_share_in_job), of which it frees all but the
// definitions and what the root causes read once the slices are cut (slice_in_job). A failure
// throws on the process where it happens, whose caller ends the job (end_job_after).
JobCauses root_causes_in_job(const MpiJob& job, HeldShare& held, const CauseOptions& options,
                             unsigned threads);

}  // namespace collwrap
