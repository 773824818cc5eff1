#include "coll_run_log.h"

#include <gtest/gtest.h>

#include <vector>

namespace collwrap::bench {
namespace {

// Two stages of two runs on three ranks; times_us[run·3 + rank].
const std::vector<double> kStage1 = {1, 4, 2, /**/ 9, 9, 9};
const std::vector<double> kStage2 = {3, 1, 5, /**/ 2, 2, 6};

TEST(CollRunLog, RunTimeIsTheSlowestRankAndInvalidRunsAreDropped) {
  RunLog log(3, RunTimeRule::MaxOverRanks);
  log.add_stage(kStage1, std::vector<int>{0, 1});
  log.add_stage(kStage2, std::vector<int>{0, 0});
  EXPECT_EQ(log.total(), 4);
  EXPECT_EQ(log.valid(), 3);
  EXPECT_EQ(log.failed(), 1);
  EXPECT_EQ(log.valid_times_us(), (std::vector<double>{4, 5, 6}));
  // Per-rank means over the valid runs only (not the invalid 9s).
  EXPECT_EQ(log.per_rank_mean_us(), (std::vector<double>{2, 7.0 / 3, 13.0 / 3}));
}

TEST(CollRunLog, RankZeroRuleReportsRankZerosTime) {
  RunLog log(3, RunTimeRule::RankZero);
  log.add_stage(kStage2, std::vector<int>{0, 0});
  EXPECT_EQ(log.valid_times_us(), (std::vector<double>{3, 2}));
}

TEST(CollRunLog, NoValidRunsLeavesZeroMeans) {
  RunLog log(2, RunTimeRule::MaxOverRanks);
  log.add_stage(std::vector<double>{1, 2}, std::vector<int>{1});
  EXPECT_EQ(log.failed(), 1);
  EXPECT_EQ(log.per_rank_mean_us(), (std::vector<double>{0, 0}));
}

}  // namespace
}  // namespace collwrap::bench
