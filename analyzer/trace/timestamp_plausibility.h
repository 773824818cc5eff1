// Which timestamps of an archive can be real.
//
// A damaged byte in an event file (or in the clock offsets of a location's definitions, which
// OTF2 adds to every event) turns a timestamp into an arbitrary 64-bit number: read as it
// comes, one such record becomes a call, a trace and a wait of billions of seconds. The
// archive's ClockProperties say when the trace started (global offset) and how long it ran
// (trace length), so a timestamp far outside that range is damage, not measurement; so is a
// location's clock running backwards by more than clock correction can explain (OTF2
// interpolates a location's offsets linearly, which never reverses its order; only rounding
// can). The reader stops a location's stream at the first such record, as at a truncation.
//
// Every accepted timestamp, converted to ns from the global offset, lies between
// -kMaxBeforeStartNs and kMaxAfterStartNs: a span of less than 2^62 ns, so that the sum of two
// durations (or of a time and a duration) cannot overflow a TimeNs.
#pragma once

#include <cstdint>
#include <string>

#include "trace_model.h"

namespace collwrap {

// The archive's timer (ClockProperties definition).
struct TimerProperties {
  std::uint64_t resolution = 0;     // ticks per second
  std::uint64_t global_offset = 0;  // timestamp of the trace's start, in ticks
  std::uint64_t length = 0;         // ticks from the start to the last event; 0: not recorded
};

// About 9 years before and 109 years after the start: far more than any trace, and still
// wide enough for unsynchronized clocks of which one counts from boot and another from 1970.
inline constexpr TimeNs kMaxBeforeStartNs = TimeNs{1} << 58;
inline constexpr TimeNs kMaxAfterStartNs = (TimeNs{1} << 61) + (TimeNs{1} << 60);
// A location's clock may step back this far (rounding, an offset record between two events)
// before the step counts as damage.
inline constexpr TimeNs kMaxBackwardStepNs = 1'000'000;

class TimestampCheck {
 public:
  // `timer.resolution` must not be 0. The accepted range is the recorded trace, widened by 1 %
  // of its length plus 1 ms (the tracer's and OTF2's clock corrections round differently);
  // without a recorded length, every timestamp from kMaxBeforeStartNs before the global offset
  // to kMaxAfterStartNs after it.
  explicit TimestampCheck(const TimerProperties& timer);

  bool plausible(std::uint64_t ticks) const { return ticks >= first_ && ticks <= last_; }

  // A location's next event at `now` ns after one at `previous` ns.
  static bool plausible_step(TimeNs previous, TimeNs now) {
    // Unsigned: the difference of any two TimeNs fits, so no overflow for any input.
    return now >= previous ||
           static_cast<std::uint64_t>(previous) - static_cast<std::uint64_t>(now) <=
               static_cast<std::uint64_t>(kMaxBackwardStepNs);
  }

  // For messages: "3505955351 s after the trace's start", "the accepted range, -0.01 s to
  // 12.1 s".
  std::string describe(std::uint64_t ticks) const;
  std::string range() const;

 private:
  double seconds_after_start(std::uint64_t ticks) const;

  TimerProperties timer_;
  std::uint64_t first_ = 0, last_ = 0;  // accepted ticks, inclusive
};

}  // namespace collwrap
