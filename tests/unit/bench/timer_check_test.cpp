#include <gtest/gtest.h>

#include <vector>

#include "clock/timer_check_verdict.h"

namespace collwrap::tracer {
namespace {

// Four ranks, U = 10 µs: WaitPatternUp should give 40 µs.
TimerCheckFigures good_figures() {
  TimerCheckFigures f;
  f.residual_us = {0, 0.2, -0.4, 0.1};
  f.null_us = {0.1, 0.05, 2000, 0.2, 0.1};  // one late broadcast does not move the median
  f.up_us = {40.1, 40.05, 40.2, 1900, 40.0};
  f.expected_up_us = 40;
  f.rates = {2.6e9, 2.6e9 * (1 + 1e-6), 2.6e9, 2.6e9};
  return f;
}

TEST(TimerCheckVerdict, TrustedWhenEveryFigureIsWithinTheBound) {
  const TimerCheckVerdict v = judge_timer_check(good_figures());
  EXPECT_TRUE(v.trusted);
  EXPECT_DOUBLE_EQ(v.worst_residual_us, 0.4);
  EXPECT_DOUBLE_EQ(v.null.median, 0.1);
  EXPECT_DOUBLE_EQ(v.null.max, 2000);
  EXPECT_DOUBLE_EQ(v.up.median, 40.1);
  EXPECT_NEAR(v.up_deviation_us, 0.1, 1e-12);
  EXPECT_TRUE(v.rate_mismatched.empty());
}

TEST(TimerCheckVerdict, ALargeResidualOffsetIsNotTrusted) {
  TimerCheckFigures f = good_figures();
  f.residual_us[2] = -1.5;
  const TimerCheckVerdict v = judge_timer_check(f);
  EXPECT_FALSE(v.residuals_ok);
  EXPECT_DOUBLE_EQ(v.worst_residual_us, 1.5);
  EXPECT_FALSE(v.trusted);
  EXPECT_TRUE(v.null_ok && v.up_ok && v.rates_ok);
}

TEST(TimerCheckVerdict, PatternMediansMustMatchTheirExpectations) {
  TimerCheckFigures late_null = good_figures();
  late_null.null_us = {3, 3, 3, 0.1, 0.1};  // most runs end 3 µs late
  EXPECT_FALSE(judge_timer_check(late_null).null_ok);
  EXPECT_FALSE(judge_timer_check(late_null).trusted);

  TimerCheckFigures short_up = good_figures();
  short_up.up_us = {30, 30, 30};  // a rank's clock ahead by 10 µs cuts the pattern short
  const TimerCheckVerdict v = judge_timer_check(short_up);
  EXPECT_FALSE(v.up_ok);
  EXPECT_DOUBLE_EQ(v.up_deviation_us, 10);
  EXPECT_FALSE(v.trusted);
}

TEST(TimerCheckVerdict, ARateMismatchIsNotTrusted) {
  TimerCheckFigures f = good_figures();
  f.rates[3] = 2.6e9 * 1.001;  // 0.1 %, above the 0.01 % tolerance
  const TimerCheckVerdict v = judge_timer_check(f);
  EXPECT_EQ(v.rate_mismatched, std::vector<int>{3});
  EXPECT_FALSE(v.trusted);
}

TEST(TimerCheckVerdict, NoRunsProveNothing) {
  TimerCheckFigures f = good_figures();
  f.null_us.clear();
  f.up_us.clear();
  const TimerCheckVerdict v = judge_timer_check(f);
  EXPECT_FALSE(v.null_ok);
  EXPECT_FALSE(v.up_ok);
  EXPECT_FALSE(v.trusted);
}

TEST(TimerCheckVerdict, BoundIsAParameter) {
  TimerCheckFigures f = good_figures();
  f.residual_us[1] = 3;
  EXPECT_FALSE(judge_timer_check(f).trusted);
  EXPECT_TRUE(judge_timer_check(f, 5.0).trusted);
}

TEST(TimerCheckPatternSpread, UpperMedianMinAndMax) {
  const PatternSpread s = pattern_spread(std::vector<double>{5, 1, 4, 2});
  EXPECT_DOUBLE_EQ(s.median, 4);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  const PatternSpread none = pattern_spread(std::vector<double>{});
  EXPECT_DOUBLE_EQ(none.median, 0);
}

}  // namespace
}  // namespace collwrap::tracer
