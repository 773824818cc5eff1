#include "coll_statistics.h"

#include <algorithm>

#include "sample_stats.h"

namespace collwrap::bench {

bool measurement_done(const StoppingRule& rule, int runs, std::span<const double> valid_us) {
  const int valid = int(valid_us.size());
  if (runs > rule.max_runs || valid > rule.max_valid) return true;
  return valid >= rule.min_valid && summarize(valid_us).relative_standard_error <= rule.target_rse;
}

std::vector<double> trim_extremes(std::span<const double> values, double fraction) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  std::size_t drop = std::size_t(fraction * double(sorted.size()));
  if (2 * drop >= sorted.size()) drop = sorted.empty() ? 0 : (sorted.size() - 1) / 2;
  return {sorted.begin() + std::ptrdiff_t(drop), sorted.end() - std::ptrdiff_t(drop)};
}

CollStatistics summarize_runs(int runs, std::span<const double> valid_us, double trim_fraction,
                              double confidence) {
  CollStatistics s;
  s.runs = runs;
  s.correct = int(valid_us.size());
  s.failed = runs - s.correct;
  if (valid_us.empty()) return s;
  const SampleSummary all = summarize(valid_us);
  s.min_us = all.min;
  s.max_us = all.max;
  const std::vector<double> kept = trim_extremes(valid_us, trim_fraction);
  const SampleSummary trimmed = summarize(kept);
  s.used = int(trimmed.n);
  s.mean_us = trimmed.mean;
  s.se_us = trimmed.standard_error;
  s.rse = trimmed.relative_standard_error;
  const ConfidenceInterval ci = mean_confidence_interval(trimmed, confidence);
  s.ci_low_us = ci.low;
  s.ci_high_us = ci.high;
  return s;
}

}  // namespace collwrap::bench
