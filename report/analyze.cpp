#include "analyze.h"

#include <utility>

#include "comm_matrix.h"
#include "compute_grains.h"
#include "operation_stats.h"
#include "parallel_for.h"
#include "run_overview.h"

#ifndef COLLWRAP_VERSION
#error "COLLWRAP_VERSION must be defined by the build"
#endif

namespace collwrap {

AnalysisResult analyze_trace(const Trace& trace, const Matching& matching,
                             const AnalysisSettings& settings) {
  AnalysisResult result;
  Findings found;
  // The rules and the root-cause analysis only read the trace: with two threads or more they
  // run at once.
  parallel_for(2, settings.threads, [&](std::size_t task) {
    if (task == 0)
      found = find_findings(trace, matching, settings.findings(), settings.threads);
    else if (settings.causes.enabled)
      result.causes = find_root_causes(trace, matching, settings.causes, settings.threads);
  });
  result.tool_version = COLLWRAP_VERSION;
  result.trace = describe_trace(trace);
  result.ranks = summarize_ranks(trace);
  result.findings = std::move(found.findings);
  result.summary = summarize_run(trace, matching, settings, result.findings);
  result.summary.instances_below_min_wait = found.instances_below_min_wait;
  result.communication = communication_matrix(trace, matching);
  result.operations = operation_stats(trace);
  result.grains = compute_grains(trace);
  return result;
}

}  // namespace collwrap
