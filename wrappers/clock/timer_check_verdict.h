// The verdict of the timer self-test (collwrap-timercheck, collwrap-bench timer), free of MPI
// so that it can be tested on synthetic figures. The test trusts timer and offsets at the
// microsecond level when
//   - every rank's residual offset (the synchronization's offset minus a direct re-measurement
//     against rank 0) is within the bound,
//   - the median of MPIPerf's WaitPatternNull (expected 0) and WaitPatternUp (expected n·U)
//     is within the bound of the expected value, and
//   - every rank's calibrated timer rate agrees with rank 0's (rate_mismatches).
#pragma once

#include <span>
#include <vector>

namespace collwrap::tracer {

// Trusted at the µs level when every figure stays within this bound.
constexpr double kTimerTrustUs = 1.0;

// Median (the upper middle value for an even count; what a majority of runs stays below or
// reaches), min and max of one pattern's results. All 0 for no results.
struct PatternSpread {
  double median = 0, min = 0, max = 0;
};
PatternSpread pattern_spread(std::span<const double> results_us);

struct TimerCheckFigures {
  std::vector<double> residual_us;  // per rank
  std::vector<double> null_us;      // WaitPatternNull, one result per run
  std::vector<double> up_us;        // WaitPatternUp, one result per run
  double expected_up_us = 0;        // ranks · unit
  std::vector<double> rates;        // ticks per second, per rank (rank 0 first)
};

struct TimerCheckVerdict {
  double worst_residual_us = 0;  // largest |residual|
  PatternSpread null, up;
  double null_deviation_us = 0;      // |median − 0|
  double up_deviation_us = 0;        // |median − expected|
  std::vector<int> rate_mismatched;  // ranks whose rate is off rank 0's
  bool residuals_ok = false, null_ok = false, up_ok = false, rates_ok = false;
  bool trusted = false;  // all four
};

TimerCheckVerdict judge_timer_check(const TimerCheckFigures& figures,
                                    double trust_us = kTimerTrustUs);

}  // namespace collwrap::tracer
