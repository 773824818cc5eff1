// Findings of two runs are the same finding when pattern, rank, thread and call site agree;
// a call that moved by a few lines (an edit above it) is still the same call when its file,
// function and MPI call agree; the rest has vanished or is new.
#include "finding_matching.h"

#include <gtest/gtest.h>

namespace collwrap::testing {
namespace {

Finding finding(std::string pattern, std::int32_t rank, std::uint32_t line, double wait,
                std::string function = "main", std::string mpi = "MPI_Recv") {
  Finding f;
  f.pattern = std::move(pattern);
  f.rank = rank;
  f.file = "/src/app.c";
  f.line = line;
  f.function = std::move(function);
  f.mpi_function = std::move(mpi);
  f.occurrences = 5;
  f.wait_time_s = wait;
  return f;
}

TEST(FindingMatching, IdenticalRunsMatchEveryFindingWithItself) {
  const std::vector<Finding> run{finding("late_sender", 0, 32, 1.0),
                                 finding("late_sender", 1, 32, 0.5),
                                 finding("wait_at_barrier", 0, 40, 0.2, "main", "MPI_Barrier")};
  const std::vector<FindingMatch> m = match_findings(run, run);
  ASSERT_EQ(m.size(), 3u);
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i].base, &run[i]);
    EXPECT_EQ(m[i].current, &run[i]);
    EXPECT_EQ(m[i].line_shift, 0);
  }
}

TEST(FindingMatching, ALineShiftedWithinTheToleranceMatches) {
  const std::vector<Finding> base{finding("late_sender", 0, 32, 1.0)};
  const std::vector<Finding> shifted{finding("late_sender", 0, 32 + kLineShiftTolerance, 0.1)};
  const std::vector<FindingMatch> m = match_findings(base, shifted);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].current, &shifted[0]);
  EXPECT_EQ(m[0].line_shift, static_cast<std::int64_t>(kLineShiftTolerance));

  const std::vector<Finding> up{finding("late_sender", 0, 30, 0.1)};
  EXPECT_EQ(match_findings(base, up)[0].line_shift, -2);
}

TEST(FindingMatching, AShiftBeyondTheToleranceIsAnotherCall) {
  const std::vector<Finding> base{finding("late_sender", 0, 32, 1.0)};
  const std::vector<Finding> far{finding("late_sender", 0, 33 + kLineShiftTolerance, 1.0)};
  const std::vector<FindingMatch> m = match_findings(base, far);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].current, nullptr);  // gone
  EXPECT_EQ(m[1].base, nullptr);     // new
}

TEST(FindingMatching, AShiftNeedsTheSameFunctionAndMpiCall) {
  const std::vector<Finding> base{finding("late_sender", 0, 32, 1.0)};
  const std::vector<Finding> other_function{finding("late_sender", 0, 33, 1.0, "solve")};
  EXPECT_EQ(match_findings(base, other_function).size(), 2u);
  const std::vector<Finding> other_call{finding("late_sender", 0, 33, 1.0, "main", "MPI_Wait")};
  EXPECT_EQ(match_findings(base, other_call).size(), 2u);
  // Without a known function a shift proves nothing.
  const std::vector<Finding> unknown_base{finding("late_sender", 0, 32, 1.0, "")};
  const std::vector<Finding> unknown_new{finding("late_sender", 0, 33, 1.0, "")};
  EXPECT_EQ(match_findings(unknown_base, unknown_new).size(), 2u);
}

TEST(FindingMatching, RankAndPatternMustAgree) {
  const std::vector<Finding> base{finding("late_sender", 0, 32, 1.0)};
  EXPECT_EQ(match_findings(base, std::vector{finding("late_sender", 1, 32, 1.0)}).size(), 2u);
  EXPECT_EQ(match_findings(base, std::vector{finding("wrong_order", 0, 32, 1.0)}).size(), 2u);
}

TEST(FindingMatching, VanishedAndNewFindingsStandAlone) {
  const std::vector<Finding> base{finding("late_sender", 0, 32, 1.0),
                                  finding("wait_at_barrier", 2, 50, 0.3, "main", "MPI_Barrier")};
  const std::vector<Finding> current{finding("late_sender", 0, 32, 0.01),
                                     finding("late_receiver", 1, 28, 0.4, "main", "MPI_Send")};
  const std::vector<FindingMatch> m = match_findings(base, current);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].base, &base[0]);
  EXPECT_EQ(m[0].current, &current[0]);
  EXPECT_EQ(m[1].base, &base[1]);  // vanished
  EXPECT_EQ(m[1].current, nullptr);
  EXPECT_EQ(m[2].base, nullptr);  // new
  EXPECT_EQ(m[2].current, &current[1]);
}

TEST(FindingMatching, ExactSitesWinOverShiftsAndTheNearestShiftWins) {
  // Two calls 3 lines apart; in the new run both moved down by one line.
  const std::vector<Finding> base{finding("late_sender", 0, 30, 1.0),
                                  finding("late_sender", 0, 33, 2.0)};
  const std::vector<Finding> current{finding("late_sender", 0, 34, 2.1),
                                     finding("late_sender", 0, 31, 1.1)};
  const std::vector<FindingMatch> m = match_findings(base, current);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].current, &current[1]);
  EXPECT_EQ(m[1].current, &current[0]);
  // A line that is there exactly is not taken by a shifted neighbour.
  const std::vector<Finding> exact{finding("late_sender", 0, 31, 1.0),
                                   finding("late_sender", 0, 30, 1.0)};
  const std::vector<FindingMatch> e = match_findings(base, exact);
  EXPECT_EQ(e[0].current, &exact[1]);
  EXPECT_EQ(e[0].line_shift, 0);
  EXPECT_EQ(e[1].current, &exact[0]);  // 33 → 31: shifted by −2
}

TEST(FindingMatching, SumsOverRanksPerPatternAndCallSite) {
  std::vector<Finding> findings{finding("late_sender", 0, 32, 1.0),
                                finding("late_sender", 2, 32, 0.5),
                                finding("late_sender", 1, 40, 2.0)};
  findings[0].peers = {1};
  findings[0].peer_threads = {{2}};
  findings[1].peers = {1, 3};
  findings[1].peer_threads = {{0}, {}};  // rank 3's thread unknown
  findings[0].max_wait_s = 0.3;
  findings[1].max_wait_s = 0.4;
  const std::vector<Finding> sums = findings_summed_over_ranks(findings);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(sums[0].line, 40u);  // the largest first
  EXPECT_EQ(sums[1].rank, kAllRanks);
  EXPECT_DOUBLE_EQ(sums[1].wait_time_s, 1.5);
  EXPECT_EQ(sums[1].occurrences, 10u);
  EXPECT_DOUBLE_EQ(sums[1].max_wait_s, 0.4);
  EXPECT_EQ(sums[1].peers, (std::vector<std::int32_t>{1, 3}));
  EXPECT_EQ(sums[1].peer_threads, (PeerThreads{{0, 2}, {}}));  // both threads of rank 1
}

}  // namespace
}  // namespace collwrap::testing
