#include "matrix_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace collwrap::bench {
namespace {

TEST(MatrixSchedule, EveryOrderedPairOnceSenderMajor) {
  const std::vector<RankPair> pairs = ordered_pairs(3);
  const std::vector<RankPair> expected = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
  EXPECT_EQ(pairs, expected);
  EXPECT_EQ(ordered_pairs(10).size(), 90u);
  EXPECT_TRUE(ordered_pairs(1).empty());
}

TEST(MatrixSchedule, ModeProperties) {
  EXPECT_FALSE(measures_one_pair_at_a_time(MatrixMode::AllToAll));
  EXPECT_TRUE(measures_one_pair_at_a_time(MatrixMode::Noise));
  EXPECT_TRUE(has_noise(MatrixMode::NoiseBlocking));
  EXPECT_TRUE(has_noise(MatrixMode::Noise));
  EXPECT_FALSE(has_noise(MatrixMode::OneToOne));
  EXPECT_TRUE(nonblocking(MatrixMode::AsyncOneToOne));
  EXPECT_TRUE(nonblocking(MatrixMode::Noise));
  EXPECT_FALSE(nonblocking(MatrixMode::NoiseBlocking));
  EXPECT_FALSE(receiver_times(MatrixMode::SendRecvAndRecvSend));
  EXPECT_TRUE(receiver_times(MatrixMode::OneToOne));
  EXPECT_TRUE(receiver_times(MatrixMode::AllToAll));
}

TEST(NoiseRankChooser, DistinctSortedRanksOutsideThePair) {
  NoiseRankChooser chooser(7);
  for (const RankPair pair : ordered_pairs(8)) {
    const std::vector<int> noise = chooser.choose(8, pair, 3);
    ASSERT_EQ(noise.size(), 3u);
    EXPECT_TRUE(std::is_sorted(noise.begin(), noise.end()));
    EXPECT_EQ(std::set<int>(noise.begin(), noise.end()).size(), 3u);
    for (int rank : noise) {
      EXPECT_NE(rank, pair.sender);
      EXPECT_NE(rank, pair.receiver);
      EXPECT_GE(rank, 0);
      EXPECT_LT(rank, 8);
    }
  }
  // Asking for more than exist gives all of them; none gives none.
  EXPECT_EQ(chooser.choose(4, {0, 1}, 5), (std::vector<int>{2, 3}));
  EXPECT_TRUE(chooser.choose(4, {0, 1}, 0).empty());
}

TEST(NoiseRankChooser, SameSeedSameDrawsOtherSeedOtherDraws) {
  NoiseRankChooser a(42), b(42), c(43);
  std::vector<std::vector<int>> from_a, from_b, from_c;
  for (const RankPair pair : ordered_pairs(10)) {
    from_a.push_back(a.choose(10, pair, 4));
    from_b.push_back(b.choose(10, pair, 4));
    from_c.push_back(c.choose(10, pair, 4));
  }
  EXPECT_EQ(from_a, from_b);
  EXPECT_NE(from_a, from_c);
}

TEST(NoiseRankChooser, EveryCandidateIsDrawnAboutEquallyOften) {
  // 6000 draws of 2 out of the 4 ranks outside pair 0→1: each rank expected 3000 times.
  NoiseRankChooser chooser(1);
  std::map<int, int> drawn;
  for (int i = 0; i < 6000; ++i)
    for (int rank : chooser.choose(6, {0, 1}, 2)) ++drawn[rank];
  ASSERT_EQ(drawn.size(), 4u);
  for (const auto& [rank, times] : drawn) {
    EXPECT_GT(times, 2700) << "rank " << rank;
    EXPECT_LT(times, 3300) << "rank " << rank;
  }
}

}  // namespace
}  // namespace collwrap::bench
