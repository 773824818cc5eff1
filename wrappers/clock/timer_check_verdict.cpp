#include "clock/timer_check_verdict.h"

#include <algorithm>
#include <cmath>

#include "record/timer_math.h"

namespace collwrap::tracer {

PatternSpread pattern_spread(std::span<const double> results_us) {
  if (results_us.empty()) return {};
  std::vector<double> v(results_us.begin(), results_us.end());
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

TimerCheckVerdict judge_timer_check(const TimerCheckFigures& figures, double trust_us) {
  TimerCheckVerdict v;
  for (double r : figures.residual_us)
    v.worst_residual_us = std::max(v.worst_residual_us, std::fabs(r));
  v.null = pattern_spread(figures.null_us);
  v.up = pattern_spread(figures.up_us);
  v.null_deviation_us = std::fabs(v.null.median);
  v.up_deviation_us = std::fabs(v.up.median - figures.expected_up_us);
  v.rate_mismatched = rate_mismatches(figures.rates);
  v.residuals_ok = v.worst_residual_us <= trust_us;
  // A self-test without runs proves nothing.
  v.null_ok = !figures.null_us.empty() && v.null_deviation_us <= trust_us;
  v.up_ok = !figures.up_us.empty() && v.up_deviation_us <= trust_us;
  v.rates_ok = v.rate_mismatched.empty();
  v.trusted = v.residuals_ok && v.null_ok && v.up_ok && v.rates_ok;
  return v;
}

}  // namespace collwrap::tracer
