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
  // The matching's working tables are given back before the clock repair: it needs less than
  // they took, and its tables would otherwise take fresh pages beside them.
  give_back_freed_memory();
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
