// Pure arithmetic behind the timer: TSC eligibility and calibration against CLOCK_MONOTONIC.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "record/recorder.h"

namespace collwrap::tracer {

// A timer reading paired with the CLOCK_MONOTONIC time (ns) at which it was taken.
struct TimerSample {
  Ticks ticks = 0;
  std::int64_t monotonic_ns = 0;
};

// One attempt at pairing: monotonic before, timer, monotonic after.
struct BracketedReading {
  std::int64_t before_ns = 0;
  Ticks ticks = 0;
  std::int64_t after_ns = 0;
};

// The attempt with the narrowest bracket is the least disturbed (no interrupt or preemption
// between the reads); its monotonic time is the bracket's midpoint.
TimerSample tightest_sample(std::span<const BracketedReading> readings);

// Ticks per second between two samples; 0 when the interval is empty or runs backwards.
double ticks_per_second(TimerSample earlier, TimerSample later);

// Calibrated timer rates differ between ranks when their TSCs tick at different rates (or one
// calibration was disturbed); their timestamps then drift apart between two synchronizations.
// Returns the ranks whose rate differs from rank 0's (rates[0]) by more than
// kRateMismatchTolerance, relative. Ranks without a rate (0) are skipped.
constexpr double kRateMismatchTolerance = 1e-4;  // 0.01 %
std::vector<int> rate_mismatches(std::span<const double> rates);

// True when /proc/cpuinfo text lists both constant_tsc and nonstop_tsc: the TSC then ticks at
// a fixed rate in every P- and C-state, so it is a usable clock.
bool cpuinfo_has_invariant_tsc(std::string_view cpuinfo);

}  // namespace collwrap::tracer
