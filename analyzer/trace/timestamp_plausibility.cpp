#include "timestamp_plausibility.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace collwrap {
namespace {

constexpr std::uint64_t kMaxTicks = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > kMaxTicks - a ? kMaxTicks : a + b;
}

std::uint64_t saturating_sub(std::uint64_t a, std::uint64_t b) {
  return b > a ? 0 : a - b;
}

// Ticks of `ns` nanoseconds at `resolution` ticks per second, rounded down, at most 2^63.
std::uint64_t ticks_of(double ns, std::uint64_t resolution) {
  const double ticks = ns * static_cast<double>(resolution) / 1e9;
  constexpr double kCap = 9223372036854775808.0;  // 2^63
  return ticks >= kCap ? std::uint64_t{1} << 63 : static_cast<std::uint64_t>(ticks);
}

std::string format_seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g s", s);
  return text;
}

}  // namespace

TimestampCheck::TimestampCheck(const TimerProperties& timer) : timer_(timer) {
  first_ = saturating_sub(timer.global_offset,
                          ticks_of(static_cast<double>(kMaxBeforeStartNs), timer.resolution));
  last_ = saturating_add(timer.global_offset,
                         ticks_of(static_cast<double>(kMaxAfterStartNs), timer.resolution));
  if (timer.length == 0) return;
  const std::uint64_t slack = saturating_add(timer.length / 100, timer.resolution / 1000);
  first_ = std::max(first_, saturating_sub(timer.global_offset, slack));
  last_ = std::min(last_, saturating_add(saturating_add(timer.global_offset, timer.length), slack));
}

double TimestampCheck::seconds_after_start(std::uint64_t ticks) const {
  const double delta = ticks >= timer_.global_offset
                           ? static_cast<double>(ticks - timer_.global_offset)
                           : -static_cast<double>(timer_.global_offset - ticks);
  return delta / static_cast<double>(timer_.resolution);
}

std::string TimestampCheck::describe(std::uint64_t ticks) const {
  const double s = seconds_after_start(ticks);
  return s < 0 ? format_seconds(-s) + " before the trace's start"
               : format_seconds(s) + " after the trace's start";
}

std::string TimestampCheck::range() const {
  return format_seconds(seconds_after_start(first_)) + " to " +
         format_seconds(seconds_after_start(last_));
}

}  // namespace collwrap
