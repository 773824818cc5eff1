#include "analyze.h"

#include <limits>
#include <optional>
#include <utility>

#include "comm_matrix.h"
#include "compute_grains.h"
#include "operation_stats.h"
#include "parallel_for.h"

#ifndef COLLWRAP_VERSION
#error "COLLWRAP_VERSION must be defined by the build"
#endif

namespace collwrap {

AnalysisResult assemble_result(const Trace& trace, ResultParts parts,
                               const AnalysisSettings& settings) {
  AnalysisResult result;
  result.tool_version = COLLWRAP_VERSION;
  result.trace = describe_trace(trace);
  result.ranks = summarize_ranks(trace, parts.times);
  result.findings = std::move(parts.found.findings);
  result.summary =
      summarize_run(trace, parts.times, parts.counts, parts.collectives, settings, result.findings);
  result.summary.instances_below_min_wait = parts.found.instances_below_min_wait;
  result.grains = std::move(parts.grains);
  result.communication = std::move(parts.communication);
  result.operations = std::move(parts.operations);
  if (settings.noise)
    result.noise =
        predict_noise_waiting(noise_model(*settings.noise, settings.noise_file, trace.world_size),
                              parts.noise, result.summary);
  return result;
}

AnalysisResult analyze_trace(const Trace& trace, const Matching& matching,
                             const AnalysisSettings& settings,
                             const std::function<void(RootCauseStage)>& release_details) {
  ResultParts parts;
  std::optional<RootCauseAnalysis> causes;
  // Every part below only reads the trace, so with two threads or more they run at once; the
  // rules, the longest, spread over every thread themselves. The root-cause analysis then runs
  // alone, its replays spread over the threads. It is prepared after the rest, so that its
  // replay graph does not add to their tables, and once prepared reads little of the trace, so
  // that what only the parts before it read can go first. Running it beside the rules would
  // be 10-30 % faster with two threads, but would hold the tables of both at the peak.
  const unsigned threads = worker_count(settings.threads, std::numeric_limits<std::size_t>::max());
  parallel_for(4, threads, [&](std::size_t task) {
    switch (task) {
      case 0:
        parts.found = find_findings(trace, matching, settings.findings(), threads);
        break;
      case 1:
        parts.grains = compute_grains(trace);
        if (settings.noise)
          parts.noise = grain_noise(
              trace, noise_model(*settings.noise, settings.noise_file, trace.world_size));
        break;
      case 2:
        parts.communication = communication_matrix(trace, matching);
        break;
      default:
        parts.operations = operation_stats(trace);
        break;
    }
  });
  parts.times = location_times(trace);
  parts.counts = matching.counts;
  parts.collectives = matching.collectives.size();
  AnalysisResult result = assemble_result(trace, std::move(parts), settings);
  if (release_details) release_details(RootCauseStage::BeforePreparing);
  if (settings.causes.enabled) causes.emplace(trace, matching, settings.causes, settings.threads);
  if (release_details) release_details(RootCauseStage::AfterPreparing);
  if (causes) result.causes = causes->run();
  return result;
}

}  // namespace collwrap
