// Timestamps in OTF2 count ticks of the trace's timer from an arbitrary origin (after OTF2 has
// applied each location's clock offsets); the model counts nanoseconds from the trace's start.
#pragma once

#include <cmath>
#include <cstdint>

#include "trace_model.h"

namespace collwrap {

class TickConverter {
 public:
  // origin_ticks becomes time 0 (the ClockProperties global offset: the trace's start).
  TickConverter(std::uint64_t ticks_per_second, std::uint64_t origin_ticks)
      : origin_(origin_ticks),
        exact_(ticks_per_second == 1'000'000'000),
        ns_per_tick_(1e9 / static_cast<double>(ticks_per_second)) {}

  TimeNs operator()(std::uint64_t ticks) const {
    // Unsigned wrap-around then a signed view: events a little before the origin (clock
    // offsets can move them there) come out negative instead of huge.
    const auto delta = static_cast<std::int64_t>(ticks - origin_);
    return exact_ ? delta
                  : static_cast<TimeNs>(std::llrint(static_cast<double>(delta) * ns_per_tick_));
  }

 private:
  std::uint64_t origin_;
  bool exact_;  // nanosecond timer: no floating point, no rounding
  double ns_per_tick_;
};

// Moves every time in the trace by the same amount so that its earliest event is at 0, and sets
// Trace::begin (0) and Trace::end. A later clock-repair pass shifts events individually; this
// only fixes the origin.
void start_time_at_zero(Trace& trace, unsigned threads);

// The same in two steps, for a trace whose locations are divided among processes: the span of
// the locations' times (first > last when none has events), then, with the span of all
// processes' locations, the move.
struct TimeSpan {
  TimeNs first, last;
};
TimeSpan time_span(const Trace& trace);
void start_time_at(Trace& trace, TimeSpan whole, unsigned threads);

}  // namespace collwrap
