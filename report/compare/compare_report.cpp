#include "compare_report.h"

#include <algorithm>

namespace collwrap {

bool CompareReport::worse() const {
  return std::any_of(verdicts.begin(), verdicts.end(),
                     [](const ThresholdVerdict& v) { return v.crossed; });
}

CompareReport compare_report(std::span<const ComparedRun> runs, const CompareOptions& options) {
  CompareReport report;
  for (const ComparedRun& run : runs) report.runs.push_back(run_facts(run));
  if (options.scaling) {
    report.scaling = scaling_study(runs);
    return report;
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    report.comparisons.push_back(compare_runs(runs[0], runs[i]));
    for (const WorseThreshold& t : options.thresholds)
      report.verdicts.push_back(check_threshold(t, report.comparisons.back()));
  }
  return report;
}

}  // namespace collwrap
