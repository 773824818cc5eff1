#include "ops_correction.h"

#include "sample_stats.h"

namespace collwrap::bench {

double clock_read_cost(double t1, double t2) {
  return t2 - t1;
}

double barrier_cost(double t1, double t2, double clock_read) {
  return t2 - t1 - clock_read;
}

double corrected_time(double t1, double t2, double clock_read, double barrier) {
  return t2 - t1 - clock_read - barrier;
}

OpsFigure combine_repeats(std::span<const double> repeat_means_us) {
  const SampleSummary s = summarize(repeat_means_us);
  return {s.mean, s.min, s.max};
}

}  // namespace collwrap::bench
