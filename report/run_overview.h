// The numbers of a report besides its findings: the trace's metadata, the time of each rank,
// and the run-wide summary (per-pattern totals, matching and clock quality, warnings).
#pragma once

#include <vector>

#include "analysis_result.h"
#include "analyze.h"

namespace collwrap {

TraceInfo describe_trace(const Trace& trace);

// One entry per MPI_COMM_WORLD rank, also for ranks whose events are missing (no threads).
std::vector<RankSummary> summarize_ranks(const Trace& trace);

// `findings` are the aggregated findings of the selected patterns.
Summary summarize_run(const Trace& trace, const Matching& matching,
                      const AnalysisSettings& settings, const std::vector<Finding>& findings);

}  // namespace collwrap
