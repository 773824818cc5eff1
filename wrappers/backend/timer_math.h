// Pure arithmetic behind the timer: TSC eligibility and calibration against CLOCK_MONOTONIC.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "recorder.h"

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

// True when /proc/cpuinfo text lists both constant_tsc and nonstop_tsc: the TSC then ticks at
// a fixed rate in every P- and C-state, so it is a usable clock.
bool cpuinfo_has_invariant_tsc(std::string_view cpuinfo);

}  // namespace collwrap::tracer
