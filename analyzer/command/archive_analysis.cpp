#include "archive_analysis.h"

#include "clock_repair.h"
#include "memory_reuse.h"
#include "root_causes.h"

namespace collwrap {

ReadProgress reading_progress(ProgressReporter* progress) {
  if (!progress) return {};
  return [progress](double fraction) { progress->progress(fraction); };
}

ArchiveAnalysis analyze_archive(const std::string& path, const AnalysisSettings& settings,
                                const ArchiveOptions& options, ProgressReporter* progress) {
  if (progress) progress->phase("reading");
  return analyze_read_trace(read_trace(path, {settings.threads}, reading_progress(progress)),
                            settings, options, progress);
}

ArchiveAnalysis analyze_read_trace(Trace trace, const AnalysisSettings& settings,
                                   const ArchiveOptions& options, ProgressReporter* progress) {
  const auto phase = [&](std::string_view name) {
    if (progress) progress->phase(name);
  };
  ArchiveAnalysis a;
  a.trace = std::move(trace);
  phase("matching");
  a.matching = match_trace_and_release_request_ids(a.trace, settings.threads);
  // Of the matching's working tables, only the heap's free pages go back: the large blocks'
  // pages serve the clock repair's and the rules' tables (memory_reuse.h), which faulted them
  // in again when they were given back. The peaks stay where they were (at the delay tables,
  // or at the matching itself without root causes); whole runs took 0.08-0.17 s less on the
  // recorded archives of tests/perf/analyzer (1.0-1.5 s) and 0.2-2.2 s less at 10^8 events.
  pass_freed_memory_to_next_stage();
  if (options.clock_repair) {
    phase("clock repair");
    // The repair keeps every location's event order, so the pairs stay; only the count of
    // violations changes, and the repair counts what is left the way the matcher does.
    const ClockRepairReport repair = repair_clocks(a.trace, a.matching, {}, settings.threads);
    if (repair.passes > 0) a.matching.counts.clock_violations = repair.violations_after;
    give_back_freed_memory();  // the repair's working tables
  }
  phase("patterns");
  const auto release_details = [&a](RootCauseStage stage) {
    release_details_for_root_causes(a.trace, a.matching, stage);
  };
  a.result =
      analyze_trace(a.trace, a.matching, settings,
                    options.keep_trace ? std::function<void(RootCauseStage)>() : release_details);
  return a;
}

}  // namespace collwrap
