// The numbers of a report besides its findings: the trace's metadata, the time of each rank,
// and the run-wide summary (per-pattern totals, matching and clock quality, warnings).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis_result.h"
#include "matching.h"

namespace collwrap {

struct AnalysisSettings;  // analyze.h

TraceInfo describe_trace(const Trace& trace);

// What the summaries read of each location's calls: a few numbers per location, so that
// processes that divide a trace (distributed/) send process 0 those of their locations.
struct LocationTimes {
  TimeNs first_enter = 0, last_leave = 0;  // of its calls, when it has any
  TimeNs mpi = 0;                          // total time inside its calls
  bool has_calls = false;
};
// One entry per location of `at`, in order.
std::vector<LocationTimes> location_times(const Trace& trace, const LocationRange& at = {});

// One entry per MPI_COMM_WORLD rank, also for ranks whose events are missing (no threads).
// `times`: of every location of the trace.
std::vector<RankSummary> summarize_ranks(const Trace& trace, std::span<const LocationTimes> times);

// `findings` are the aggregated findings of the selected patterns; `counts` and `collectives`
// the matching's (its counts, its number of collective instances).
Summary summarize_run(const Trace& trace, std::span<const LocationTimes> times,
                      const MatchCounts& counts, std::uint64_t collectives,
                      const AnalysisSettings& settings, const std::vector<Finding>& findings);

}  // namespace collwrap
