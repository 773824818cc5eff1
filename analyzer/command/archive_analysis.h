// Read → match → (clock repair) → patterns and causes: the analysis of one archive, shared by
// `analyzer TRACE` and `analyzer compare`.
#pragma once

#include <string>
#include <string_view>

#include "analysis_result.h"
#include "analyze.h"
#include "matching.h"
#include "progress.h"
#include "trace_model.h"
#include "trace_reader.h"

namespace collwrap {

// Said after the trace reader's message when an archive cannot be read.
inline constexpr std::string_view kIncompleteTraceAdvice =
    "; nothing can be analyzed: trace the program again (an archive is complete once every "
    "rank has passed MPI_Finalize)";

struct ArchiveOptions {
  bool clock_repair = true;
  // Whether the trace's ops and the matching must outlive the analysis, for reports drawn
  // from them (the timeline, the HTML report). Otherwise they go before the root-cause
  // analysis, which reads little of them (release_details_for_root_causes), so that its tables do
  // not add to them at the analyzer's peak.
  bool keep_trace = true;
};

struct ArchiveAnalysis {
  Trace trace;        // without op details (Trace::release_op_details) unless keep_trace
  Matching matching;  // empty unless keep_trace
  AnalysisResult result;
};

// Phases for `progress` (may be null): reading, matching, clock repair (with
// options.clock_repair), patterns. Throws the trace reader's TraceUsageError and TraceReadError.
ArchiveAnalysis analyze_archive(const std::string& path, const AnalysisSettings& settings,
                                const ArchiveOptions& options, ProgressReporter* progress);

// The phases after reading, for a trace read otherwise (by the processes of an MPI job).
ArchiveAnalysis analyze_read_trace(Trace trace, const AnalysisSettings& settings,
                                   const ArchiveOptions& options, ProgressReporter* progress);

// The progress callback of the reading phase.
ReadProgress reading_progress(ProgressReporter* progress);

}  // namespace collwrap
