// Sums of durations that cannot overflow.
//
// The reader keeps every time within less than 2^62 ns of each other (timestamp_plausibility.h),
// so a single duration always fits a TimeNs; a sum over many calls or locations need not. A
// sum that would overflow stays at the largest TimeNs instead (signed overflow is undefined
// behaviour, and wrapping around would turn it negative).
#pragma once

#include <limits>

#include "trace_model.h"

namespace collwrap {

constexpr TimeNs add_saturating(TimeNs sum, TimeNs duration) {
  TimeNs result;
  if (!__builtin_add_overflow(sum, duration, &result)) return result;
  return duration > 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min();
}

}  // namespace collwrap
