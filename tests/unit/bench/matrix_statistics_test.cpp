#include "matrix_statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace collwrap::bench {
namespace {

constexpr std::size_t kMin = std::size_t(MatrixStatistic::Min);
constexpr std::size_t kMedian = std::size_t(MatrixStatistic::Median);
constexpr std::size_t kMean = std::size_t(MatrixStatistic::Mean);
constexpr std::size_t kStddev = std::size_t(MatrixStatistic::Stddev);
constexpr std::size_t kMax = std::size_t(MatrixStatistic::Max);

TEST(PeerSamples, SummariesPerPeerAndNaNWithoutSamples) {
  PeerSamples samples(3);
  for (double s : {4.0, 1.0, 2.0, 3.0}) samples.add(2, s);
  const std::vector<double> out = samples.summaries();
  ASSERT_EQ(out.size(), 3 * kStatisticCount);
  for (std::size_t s = 0; s < 2 * kStatisticCount; ++s) EXPECT_TRUE(std::isnan(out[s]));
  const double* peer2 = out.data() + 2 * kStatisticCount;
  EXPECT_DOUBLE_EQ(peer2[kMin], 1.0);
  EXPECT_DOUBLE_EQ(peer2[kMedian], 2.5);
  EXPECT_DOUBLE_EQ(peer2[kMean], 2.5);
  EXPECT_NEAR(peer2[kStddev], std::sqrt(5.0 / 3.0), 1e-12);  // sample stddev (n − 1)
  EXPECT_DOUBLE_EQ(peer2[kMax], 4.0);
  EXPECT_THROW(samples.add(3, 1.0), std::out_of_range);
}

// Rank r's summary for peer p is 10·r + p (+0.1·statistic), so each cell shows where it came from.
std::vector<double> tagged_summaries(int n) {
  std::vector<double> gathered;
  for (int r = 0; r < n; ++r)
    for (int p = 0; p < n; ++p)
      for (std::size_t s = 0; s < kStatisticCount; ++s)
        gathered.push_back(r == p ? NAN : 10.0 * r + p + 0.1 * double(s));
  return gathered;
}

TEST(AssembleMatrices, ReceiverTimedCellsComeFromTheReceiversRow) {
  const StatisticMatrices m = assemble_matrices(tagged_summaries(3), 3, true);
  // Cell 0→2 was timed by rank 2 about peer 0.
  EXPECT_DOUBLE_EQ(m[kMin][0][2], 20.0);
  EXPECT_DOUBLE_EQ(m[kStddev][0][2], 20.3);
  EXPECT_DOUBLE_EQ(m[kMax][0][2], 20.4);
  EXPECT_DOUBLE_EQ(m[kMedian][2][1], 12.1);
  for (std::size_t s = 0; s < kStatisticCount; ++s)
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(m[s][std::size_t(i)][std::size_t(i)]));
}

TEST(AssembleMatrices, SenderTimedCellsComeFromTheSendersRow) {
  const StatisticMatrices m = assemble_matrices(tagged_summaries(3), 3, false);
  EXPECT_DOUBLE_EQ(m[kMin][0][2], 2.0);  // rank 0 about peer 2
  EXPECT_DOUBLE_EQ(m[kMean][2][1], 21.2);
  EXPECT_THROW(assemble_matrices(tagged_summaries(3), 4, false), std::invalid_argument);
}

TEST(FiniteCells, SkipsCellsWithoutData) {
  EXPECT_EQ(finite_cells({{NAN, 1.0}, {2.0, NAN}}), (std::vector<double>{1.0, 2.0}));
  EXPECT_TRUE(finite_cells({{NAN}}).empty());
}

}  // namespace
}  // namespace collwrap::bench
