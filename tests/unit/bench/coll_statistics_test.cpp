#include "coll_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace collwrap::bench {
namespace {

std::vector<double> constant(int n, double value) {
  return std::vector<double>(std::size_t(n), value);
}

TEST(CollStopping, StopsAfterTooManyRunsOrEnoughValidOnes) {
  const StoppingRule rule;  // > 100 runs or > 30 valid
  std::vector<double> noisy;
  for (int i = 0; i < 31; ++i) noisy.push_back(i % 2 ? 1.0 : 100.0);  // RSE far above 5 %
  EXPECT_FALSE(measurement_done(rule, 100, std::vector<double>(noisy.begin(), noisy.begin() + 5)));
  EXPECT_TRUE(measurement_done(rule, 101, std::vector<double>(noisy.begin(), noisy.begin() + 5)));
  EXPECT_FALSE(measurement_done(rule, 40, std::vector<double>(noisy.begin(), noisy.begin() + 30)));
  EXPECT_TRUE(measurement_done(rule, 40, noisy));
}

TEST(CollStopping, StopsEarlyOnceTheMeanIsPreciseWithEnoughValidRuns) {
  const StoppingRule rule;                                     // RSE ≤ 5 % with ≥ 10 valid
  EXPECT_FALSE(measurement_done(rule, 16, constant(9, 5.0)));  // precise but too few
  EXPECT_TRUE(measurement_done(rule, 16, constant(10, 5.0)));
  std::vector<double> spread = constant(10, 5.0);
  spread[0] = 50;  // RSE ≈ 0.5
  EXPECT_FALSE(measurement_done(rule, 16, spread));
  StoppingRule loose = rule;
  loose.target_rse = 0.9;
  EXPECT_TRUE(measurement_done(loose, 16, spread));
}

TEST(CollTrimming, DropsTheFractionAtEachEnd) {
  const std::vector<double> v = {9, 1, 8, 2, 7, 3, 6, 4};  // 8 values, 25 %: 2 at each end
  EXPECT_EQ(trim_extremes(v, 0.25), (std::vector<double>{3, 4, 6, 7}));
  EXPECT_EQ(trim_extremes(v, 0.0), (std::vector<double>{1, 2, 3, 4, 6, 7, 8, 9}));
  // Rounded down: 25 % of 7 is 1.75 values, so one at each end.
  EXPECT_EQ(trim_extremes(std::vector<double>{5, 1, 9, 2, 8, 3, 7}, 0.25),
            (std::vector<double>{2, 3, 5, 7, 8}));
}

TEST(CollTrimming, NeverEmptiesTheSample) {
  EXPECT_EQ(trim_extremes(std::vector<double>{3, 1, 2}, 0.5), (std::vector<double>{2}));
  EXPECT_EQ(trim_extremes(std::vector<double>{4, 1}, 0.5), (std::vector<double>{1, 4}));
  EXPECT_TRUE(trim_extremes(std::vector<double>{}, 0.25).empty());
}

TEST(CollSummary, ReportsCountsTrimmedMeanAndExtremesOfAllValidRuns) {
  // 10 runs, 8 valid; 25 % trimming keeps {3, 4, 5, 6}.
  const std::vector<double> valid = {1, 2, 3, 4, 5, 6, 7, 100};
  const CollStatistics s = summarize_runs(10, valid, 0.25, 0.95);
  EXPECT_EQ(s.runs, 10);
  EXPECT_EQ(s.correct, 8);
  EXPECT_EQ(s.failed, 2);
  EXPECT_EQ(s.used, 4);
  EXPECT_DOUBLE_EQ(s.mean_us, 4.5);
  EXPECT_DOUBLE_EQ(s.min_us, 1);
  EXPECT_DOUBLE_EQ(s.max_us, 100);
  // stddev of {3,4,5,6} = √(5/3); SE = stddev/2; t(0.95, 3) = 3.182446305.
  const double se = std::sqrt(5.0 / 3.0) / 2;
  EXPECT_NEAR(s.se_us, se, 1e-12);
  EXPECT_NEAR(s.rse, se / 4.5, 1e-12);
  EXPECT_NEAR(s.ci_low_us, 4.5 - 3.182446305 * se, 1e-6);
  EXPECT_NEAR(s.ci_high_us, 4.5 + 3.182446305 * se, 1e-6);
}

TEST(CollSummary, NoValidRunsGivesCountsOnly) {
  const CollStatistics s = summarize_runs(24, std::vector<double>{}, 0.25, 0.95);
  EXPECT_EQ(s.runs, 24);
  EXPECT_EQ(s.failed, 24);
  EXPECT_EQ(s.used, 0);
  EXPECT_EQ(s.mean_us, 0);
}

}  // namespace
}  // namespace collwrap::bench
