#include "record/timer_math.h"

#include <gtest/gtest.h>

#include <vector>

namespace collwrap::tracer {
namespace {

TEST(TightestSample, PicksTheNarrowestBracketAndItsMidpoint) {
  std::vector<BracketedReading> readings{{100, 5000, 180}, {300, 5600, 320}, {400, 5900, 480}};
  TimerSample s = tightest_sample(readings);
  EXPECT_EQ(s.ticks, 5600u);
  EXPECT_EQ(s.monotonic_ns, 310);
}

TEST(TightestSample, SkipsBracketsThatRunBackwards) {
  std::vector<BracketedReading> readings{{500, 1, 400}, {600, 2, 700}};
  EXPECT_EQ(tightest_sample(readings).ticks, 2u);
}

TEST(TicksPerSecond, ComputesTheRateBetweenTwoSamples) {
  // 2.5 GHz over 10 ms
  EXPECT_DOUBLE_EQ(ticks_per_second({1'000'000, 0}, {26'000'000, 10'000'000}), 2.5e9);
}

TEST(TicksPerSecond, IsZeroForAnEmptyOrBackwardInterval) {
  EXPECT_EQ(ticks_per_second({100, 50}, {200, 50}), 0.0);
  EXPECT_EQ(ticks_per_second({300, 50}, {200, 60}), 0.0);
}

TEST(InvariantTsc, NeedsBothFlags) {
  EXPECT_TRUE(cpuinfo_has_invariant_tsc(
      "processor\t: 0\nflags\t\t: fpu tsc constant_tsc rep_good nonstop_tsc cpuid\nbogomips: 1\n"));
  EXPECT_FALSE(
      cpuinfo_has_invariant_tsc("processor\t: 0\nflags\t\t: fpu tsc constant_tsc cpuid\n"));
  EXPECT_FALSE(cpuinfo_has_invariant_tsc("processor\t: 0\nflags\t\t: fpu tsc nonstop_tsc\n"));
}

TEST(InvariantTsc, MatchesWholeFlagsOnly) {
  EXPECT_FALSE(cpuinfo_has_invariant_tsc("flags\t: xconstant_tsc nonstop_tscy\n"));
  EXPECT_FALSE(cpuinfo_has_invariant_tsc("model name: constant_tsc nonstop_tsc\n"));
  EXPECT_TRUE(cpuinfo_has_invariant_tsc("flags\t: constant_tsc nonstop_tsc"));
}

TEST(RateMismatches, NamesRanksMoreThanOneHundredthOfAPercentOffRankZero) {
  // 3 GHz: 0.01 % is 300 kHz. Rank 1 is just inside, rank 2 just outside above, rank 4 below.
  std::vector<double> rates{3.0e9, 3.0e9 + 2.9e5, 3.0e9 + 3.1e5, 3.0e9, 3.0e9 - 3.1e5};
  EXPECT_EQ(rate_mismatches(rates), (std::vector<int>{2, 4}));
}

TEST(RateMismatches, SkipsUnknownRatesAndNeedsRankZero) {
  EXPECT_TRUE(rate_mismatches(std::vector<double>{1e9, 0, 1e9}).empty());
  EXPECT_TRUE(rate_mismatches(std::vector<double>{0, 2e9}).empty());
  EXPECT_TRUE(rate_mismatches(std::vector<double>{}).empty());
}

}  // namespace
}  // namespace collwrap::tracer
