#include "noise_bands.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace collwrap::noise {
namespace {

constexpr double kT = 1.0;  // seconds of collection

TEST(NoiseBands, UnionLengthMergesOverlaps) {
  EXPECT_DOUBLE_EQ(union_length({}), 0);
  EXPECT_DOUBLE_EQ(union_length({{0.5, 0.1}, {0.1, 0.2}, {0.2, 0.2}, {0.9, 0.05}}),
                   0.3 + 0.1 + 0.05);
  EXPECT_DOUBLE_EQ(union_length({{0.1, 0.5}, {0.2, 0.1}}), 0.5);  // one inside another
}

TEST(NoiseBands, IdenticalBurstsOnAllRanksAreFullySynchronous) {
  const RankBursts same = {{0.1, 2e-3}, {0.4, 3e-3}, {0.7, 1e-3}};
  const std::vector<RankBursts> ranks(4, same);
  const BandMetrics m = band_metrics(ranks, kT, 1e-6, kNoUpperBound);
  EXPECT_EQ(m.bursts, 12u);
  EXPECT_DOUBLE_EQ(m.mean_duration_s, 2e-3);
  ASSERT_EQ(m.total_by_rank_s.size(), 4u);
  EXPECT_DOUBLE_EQ(m.total_by_rank_s[2], 6e-3);
  // Three bursts per process in the 1 s − 6 ms of work.
  EXPECT_NEAR(m.mean_gap_s, 4 * (kT - 6e-3) / 12, 1e-15);
  EXPECT_NEAR(m.union_s, 6e-3, 1e-15);
  EXPECT_NEAR(m.coverage, 6e-3 / kT, 1e-15);
  EXPECT_NEAR(m.synchronicity, 1.0, 1e-12);
}

TEST(NoiseBands, DisjointBurstsAreFullyAsynchronous) {
  std::vector<RankBursts> ranks;
  for (int r = 0; r < 5; ++r) ranks.push_back({{0.1 * r, 1e-3}, {0.5 + 0.1 * r, 1e-3}});
  const BandMetrics m = band_metrics(ranks, kT, 1e-6, kNoUpperBound);
  EXPECT_NEAR(m.union_s, 10e-3, 1e-15);
  EXPECT_NEAR(m.coverage, 10e-3, 1e-15);
  EXPECT_NEAR(m.synchronicity, 1.0 / 5, 1e-12);
  EXPECT_NEAR(m.mean_gap_s, 5 * (kT - 2e-3) / 10, 1e-15);
}

TEST(NoiseBands, PartlyOverlappingBursts) {
  // Rank 0: [0, 2 ms); rank 1: [1 ms, 3 ms). Σ D = 4 ms, U = 3 ms, S = 4 / (2·3).
  const std::vector<RankBursts> ranks = {{{0, 2e-3}}, {{1e-3, 2e-3}}};
  const BandMetrics m = band_metrics(ranks, 0.5, 1e-6, kNoUpperBound);
  EXPECT_DOUBLE_EQ(m.union_s, 3e-3);
  EXPECT_DOUBLE_EQ(m.coverage, 3e-3 / 0.5);
  EXPECT_DOUBLE_EQ(m.synchronicity, 4.0 / 6.0);
  // Noise on one rank of the two counts both processes: S = 1/2.
  const std::vector<RankBursts> lonely = {{{0, 2e-3}}, {}};
  EXPECT_DOUBLE_EQ(band_metrics(lonely, 0.5, 1e-6, kNoUpperBound).synchronicity, 0.5);
}

TEST(NoiseBands, BandsSplitByDuration) {
  const std::vector<RankBursts> ranks = {{{0.1, 5e-6}, {0.2, 50e-6}, {0.3, 20e-3}},
                                         {{0.1, 7e-6}, {0.25, 10e-6}}};
  const std::vector<double> edges = band_edges(2e-6, default_upper_edges_s());
  ASSERT_EQ(edges.size(), 5u);
  const std::vector<BandMetrics> bands = all_bands(ranks, kT, edges);
  ASSERT_EQ(bands.size(), 5u);
  EXPECT_EQ(bands[0].bursts, 2u);  // 5 and 7 µs
  EXPECT_DOUBLE_EQ(bands[0].mean_duration_s, 6e-6);
  // Work time per process: T minus (5 + 50 + 20000 + 7 + 10) µs / 2, over 2 bursts of 2 ranks.
  EXPECT_NEAR(bands[0].mean_gap_s, 2 * (kT - 20072e-6 / 2) / 2, 1e-15);
  EXPECT_EQ(bands[1].bursts, 2u);  // 10 µs (the lower edge belongs to the band) and 50 µs
  EXPECT_EQ(bands[2].bursts, 0u);
  EXPECT_TRUE(std::isinf(bands[2].mean_gap_s));
  EXPECT_DOUBLE_EQ(bands[2].synchronicity, 1.0);
  EXPECT_EQ(bands[4].bursts, 1u);  // 20 ms, in [10 ms, ∞)
  EXPECT_TRUE(std::isinf(bands[4].high_s));
  // Edges at or below the threshold are dropped.
  EXPECT_EQ(band_edges(50e-6, default_upper_edges_s()),
            (std::vector<double>{50e-6, 100e-6, 1e-3, 10e-3}));
}

}  // namespace
}  // namespace collwrap::noise
