// Which timestamps the reader accepts (timestamp_plausibility.h), and duration sums that
// saturate instead of overflowing (time_sum.h).
#include "timestamp_plausibility.h"

#include <gtest/gtest.h>

#include <limits>

#include "time_sum.h"

namespace collwrap {
namespace {

constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
constexpr auto kAfter = static_cast<std::uint64_t>(kMaxAfterStartNs);

// A 100 s trace of a nanosecond timer that starts at tick 5e9: slack 1 s + 1 ms either side.
const TimerProperties kNsTimer{1'000'000'000, 5'000'000'000, 100'000'000'000};

TEST(TimestampCheck, AcceptsTheRecordedTraceAndItsSlack) {
  const TimestampCheck check(kNsTimer);
  EXPECT_TRUE(check.plausible(5'000'000'000));
  EXPECT_TRUE(check.plausible(105'000'000'000));
  EXPECT_TRUE(check.plausible(5'000'000'000 - 1'001'000'000));
  EXPECT_TRUE(check.plausible(105'000'000'000 + 1'001'000'000));
}

TEST(TimestampCheck, RejectsWhatLiesBeyondTheSlack) {
  const TimestampCheck check(kNsTimer);
  EXPECT_FALSE(check.plausible(5'000'000'000 - 1'001'000'001));
  EXPECT_FALSE(check.plausible(105'000'000'000 + 1'001'000'001));
  EXPECT_FALSE(check.plausible(0));
  // Five bytes of a timestamp overwritten with 0x7f.
  EXPECT_FALSE(check.plausible(0x7f7f7f7f7f000000));
  EXPECT_FALSE(check.plausible(std::numeric_limits<std::uint64_t>::max()));
}

TEST(TimestampCheck, ConvertsTheSlackToTicksOfSlowTimers) {
  // 1 MHz: 100 s are 1e8 ticks; slack 1e6 + 1e3 ticks.
  const TimestampCheck check({1'000'000, 0, 100'000'000});
  EXPECT_TRUE(check.plausible(101'001'000));
  EXPECT_FALSE(check.plausible(101'001'001));
}

TEST(TimestampCheck, WithoutARecordedLengthOnlyBoundsTheSpan) {
  const TimestampCheck check({1'000'000'000, 1000, 0});
  EXPECT_TRUE(check.plausible(0));  // before the start, but not by much
  // A realtime clock (since 1970) against a monotonic one (since boot) without clock sync.
  EXPECT_TRUE(check.plausible(1'795'490'000'000'000'000));
  EXPECT_TRUE(check.plausible(1000 + kAfter));
  EXPECT_FALSE(check.plausible(1001 + kAfter));
  EXPECT_FALSE(check.plausible(std::numeric_limits<std::uint64_t>::max()));
}

TEST(TimestampCheck, HugeClockPropertiesStillBoundTheSpan) {
  // A damaged trace length, resolution or offset must not let any timestamp through whose
  // time in ns would not fit.
  const std::uint64_t huge = std::numeric_limits<std::uint64_t>::max();
  const TimestampCheck long_trace({1'000'000'000, 0, huge});
  EXPECT_FALSE(long_trace.plausible(kAfter + 1));
  const TimestampCheck late_start({1'000'000'000, huge - 10, 100});
  EXPECT_TRUE(late_start.plausible(huge));
  EXPECT_FALSE(late_start.plausible(0));
  const TimestampCheck fast_timer({huge, 0, 0});
  EXPECT_TRUE(fast_timer.plausible(std::uint64_t{1} << 62));
}

TEST(TimestampCheck, AStepBackBeyondAMillisecondIsDamage) {
  EXPECT_TRUE(TimestampCheck::plausible_step(100, 100));
  EXPECT_TRUE(TimestampCheck::plausible_step(100, 200));
  EXPECT_TRUE(TimestampCheck::plausible_step(2'000'000, 1'000'000));
  EXPECT_FALSE(TimestampCheck::plausible_step(2'000'001, 1'000'000));
  // The first record of a stream follows "no time yet"; extremes do not overflow.
  EXPECT_TRUE(TimestampCheck::plausible_step(kMin, kMin));
  EXPECT_TRUE(TimestampCheck::plausible_step(kMin, kMax));
  EXPECT_FALSE(TimestampCheck::plausible_step(kMax, kMin));
}

TEST(TimestampCheck, DescribesTimesInSecondsFromTheStart) {
  const TimestampCheck check(kNsTimer);
  EXPECT_EQ(check.describe(8'000'000'000), "3 s after the trace's start");
  EXPECT_EQ(check.describe(3'000'000'000), "2 s before the trace's start");
  EXPECT_EQ(check.range(), "-1.001 s to 101.001 s");
}

TEST(TimeSum, AddsLikePlusWhileItFits) {
  EXPECT_EQ(add_saturating(3, 4), 7);
  EXPECT_EQ(add_saturating(-3, 4), 1);
  EXPECT_EQ(add_saturating(kMax - 1, 1), kMax);
}

TEST(TimeSum, StaysAtTheLimitInsteadOfWrapping) {
  EXPECT_EQ(add_saturating(kMax, 1), kMax);
  EXPECT_EQ(add_saturating(kMax / 2 + 1, kMax / 2 + 1), kMax);
  EXPECT_EQ(add_saturating(kMin, -1), kMin);
}

}  // namespace
}  // namespace collwrap
