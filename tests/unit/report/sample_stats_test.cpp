#include "sample_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
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

// Large enough for the radix sort: negative, positive, zero, denormal, infinite and repeated
// values all end in std::sort's order.
TEST(SampleStats, SortAscendingMatchesAComparisonSort) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> magnitude(-30, 30);
  std::vector<double> v;
  for (int i = 0; i < 100000; ++i) {
    const double x = std::pow(10.0, magnitude(random));
    v.push_back(random() % 3 == 0 ? -x : x);
  }
  for (const double special :
       {0.0, 4.9e-324, -4.9e-324, 1e308, -1e308, std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(), 1.5e-6, 1.5e-6})
    v.push_back(special);
  std::vector<double> expected = v;
  std::sort(expected.begin(), expected.end());
  sort_ascending(v);
  EXPECT_EQ(v, expected);
}

// Transfer times in whole nanoseconds share their upper bits: the passes over digits that all
// values share are skipped, and the order still comes out right.
TEST(SampleStats, SortAscendingOfCloseValues) {
  std::vector<double> v;
  for (int i = 0; i < 50000; ++i) v.push_back(1e-6 + (i * 7919 % 50000) * 1e-9);
  std::vector<double> expected = v;
  std::sort(expected.begin(), expected.end());
  sort_ascending(v);
  EXPECT_EQ(v, expected);
  const SampleSummary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.min, 1e-6);
  EXPECT_DOUBLE_EQ(s.max, 1e-6 + 49999e-9);
}

// Compute grains of a loop repeat a few lengths many times: buckets full of equal keys, and
// every value moved by cycles through the buckets.
TEST(SampleStats, SortAscendingOfManyRepeats) {
  std::mt19937_64 random(11);
  std::vector<double> v;
  for (int i = 0; i < 200000; ++i) v.push_back(static_cast<double>(random() % 10) * 1e-3 - 2e-3);
  std::vector<double> expected = v;
  std::sort(expected.begin(), expected.end());
  sort_ascending(v);
  EXPECT_EQ(v, expected);
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
