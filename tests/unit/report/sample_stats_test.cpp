#include "sample_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace collwrap {
namespace {

TEST(SampleStats, SummaryOfAKnownSample) {
  const std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};
  const SampleSummary s = summarize(v);
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.population_stddev, 2);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7), 1e-12);
  EXPECT_NEAR(s.standard_error, std::sqrt(32.0 / 7) / std::sqrt(8.0), 1e-12);
  EXPECT_NEAR(s.relative_standard_error, s.standard_error / 5, 1e-12);
}

TEST(SampleStats, EmptyAndSingleSamples) {
  EXPECT_EQ(summarize({}).n, 0u);
  const std::vector<double> one = {3};
  const SampleSummary s = summarize(one);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  const ConfidenceInterval ci = mean_confidence_interval(s, 0.95);
  EXPECT_DOUBLE_EQ(ci.low, 3);
  EXPECT_DOUBLE_EQ(ci.high, 3);
}

TEST(SampleStats, NormalQuantileMatchesTables) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(normal_quantile(0.5), 0, 1e-12);
  EXPECT_NEAR(normal_quantile(0.01), -2.326348, 1e-6);
  EXPECT_NEAR(normal_quantile(0.995), 2.575829, 1e-6);
}

TEST(SampleStats, StudentQuantileMatchesTables) {
  // Two-sided 95 % and 99 % critical values.
  EXPECT_NEAR(student_t_quantile(0.95, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 2), 4.3027, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 3), 3.1824, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 10), 2.2281, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.99, 5), 4.0321, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.90, 30), 1.6973, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 300), 1.9679, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 1000), 1.9623, 1e-4);
}

TEST(SampleStats, ConfidenceIntervalIsSymmetricAroundTheMean) {
  const std::vector<double> v = {10, 12, 11, 13, 9, 11};
  const SampleSummary s = summarize(v);
  const ConfidenceInterval ci = mean_confidence_interval(s, 0.95);
  EXPECT_NEAR((ci.low + ci.high) / 2, s.mean, 1e-12);
  EXPECT_NEAR(ci.high - s.mean, 2.5706 * s.standard_error, 1e-4 * s.standard_error);
}

}  // namespace
}  // namespace collwrap
