// --fail-if-worse: its syntax, and when a new run counts as worse.
#include "thresholds.h"

#include <gtest/gtest.h>

namespace collwrap::testing {
namespace {

TEST(Thresholds, ParsesPatternAndTotalWithPercent) {
  const WorseThreshold t = parse_worse_threshold("late_sender:10");
  EXPECT_EQ(t.subject, "late_sender");
  EXPECT_DOUBLE_EQ(t.percent, 10);
  EXPECT_EQ(parse_worse_threshold("total:0").subject, kTotalWaiting);
  EXPECT_DOUBLE_EQ(parse_worse_threshold("total:2.5").percent, 2.5);
}

TEST(Thresholds, RefusesWhatIsNotAThreshold) {
  EXPECT_THROW(parse_worse_threshold("late_sender"), std::invalid_argument);
  EXPECT_THROW(parse_worse_threshold("late_sender:"), std::invalid_argument);
  EXPECT_THROW(parse_worse_threshold("late_sender:-1"), std::invalid_argument);
  EXPECT_THROW(parse_worse_threshold("late_sender:10%"), std::invalid_argument);
  EXPECT_THROW(parse_worse_threshold("no_such_pattern:10"), std::invalid_argument);
}

TEST(Thresholds, WorseMeansGrowthBeyondThePercentAndTheFloor) {
  EXPECT_TRUE(is_worse(1.0, 1.2, 10));               // +20 % > 10 %
  EXPECT_FALSE(is_worse(1.0, 1.05, 10));             // +5 %
  EXPECT_FALSE(is_worse(1.0, 1.125, 12.5));              // exactly the threshold is not beyond it
  EXPECT_FALSE(is_worse(1.0, 0.2, 0));               // better
  EXPECT_TRUE(is_worse(0.0, 0.5, 10));               // waiting where there was none
  EXPECT_FALSE(is_worse(0.0, kWorseFloorS / 2, 0));  // timer noise
  EXPECT_FALSE(is_worse(0.0001, 0.0005, 10));        // +400 %, but 0.4 ms
}

RunComparison comparison(double base_total, double new_total, double base_ls, double new_ls) {
  RunComparison c;
  c.base.label = "base";
  c.current.label = "new";
  c.total_wait_s = {base_total, new_total};
  c.patterns.push_back({"late_sender", {base_ls, new_ls}});
  return c;
}

TEST(Thresholds, VerdictsOfTotalAndOfOnePattern) {
  const RunComparison c = comparison(1.0, 1.5, 1.0, 0.9);
  const ThresholdVerdict total = check_threshold(parse_worse_threshold("total:10"), c);
  EXPECT_TRUE(total.crossed);
  EXPECT_DOUBLE_EQ(total.wait_s.current, 1.5);
  EXPECT_FALSE(check_threshold(parse_worse_threshold("late_sender:0"), c).crossed);
  EXPECT_EQ(check_threshold(parse_worse_threshold("total:60"), c).crossed, false);
}

TEST(Thresholds, APatternOnlyOneRunLookedForIsNotCompared) {
  const ThresholdVerdict v =
      check_threshold(parse_worse_threshold("wrong_order:0"), comparison(1, 2, 1, 2));
  EXPECT_FALSE(v.comparable);
  EXPECT_FALSE(v.crossed);
}

}  // namespace
}  // namespace collwrap::testing
