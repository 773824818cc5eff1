#include "coll_window.h"

#include <gtest/gtest.h>

namespace collwrap::bench {
namespace {

TEST(CollWindow, RunsStartOneWindowApart) {
  EXPECT_EQ(run_start(1000, 50, 0), 1000);
  EXPECT_EQ(run_start(1000, 50, 3), 1150);
}

TEST(CollWindow, RunIsValidOnlyWhenItStartsOnTimeAndEndsInItsWindow) {
  // Run 2 of a stage starting at 1000 with δ = 50 owns [1100, 1150].
  EXPECT_EQ(judge_run(1000, 50, 2, 1100, 1150), RunVerdict::Valid);
  EXPECT_EQ(judge_run(1000, 50, 2, 1090, 1120), RunVerdict::Valid);  // waited for its start
  EXPECT_EQ(judge_run(1000, 50, 2, 1101, 1120), RunVerdict::LateStart);
  EXPECT_EQ(judge_run(1000, 50, 2, 1100, 1151), RunVerdict::Overrun);
  // A late start is reported as such even when the run also overran.
  EXPECT_EQ(judge_run(1000, 50, 2, 1200, 1300), RunVerdict::LateStart);
}

TEST(CollWindow, InitialWindowIsGammaTimesTheMeanWarmupRun) {
  // Four back-to-back warm-up runs took 400 ticks: 100 per run, γ = 1.1.
  EXPECT_EQ(initial_window(0, 400, 4, 1.1), 110);
  // Never zero, even for a warm-up that took no measurable time.
  EXPECT_EQ(initial_window(500, 500, 4, 1.1), 1);
}

TEST(CollWindow, WindowStaysWhileAtMostQOfAStageIsInvalid) {
  const WindowParameters p;  // k = 8, q = 25 %
  EXPECT_EQ(next_window(100, 0, 2000, 8, 0, p), 100);
  EXPECT_EQ(next_window(100, 0, 2000, 8, 2, p), 100);  // exactly 25 %: not more than q
}

TEST(CollWindow, WindowWidensToGammaTimesTheStagesMeanRun) {
  const WindowParameters p;
  // 3 of 8 invalid; the stage lasted 1600 ticks: 200 per run, γ·200 = 220.
  EXPECT_EQ(next_window(100, 0, 1600, 8, 3, p), 220);
}

TEST(CollWindow, WindowAlwaysGrowsWhenAStageFailed) {
  const WindowParameters p;
  // Late starts, but the stage ended in 400 ticks (50 per run): the seed's formula would give
  // 55 < 100; the window grows by γ instead.
  EXPECT_EQ(next_window(100, 0, 400, 8, 8, p), 110);
  // A one-tick window still grows.
  EXPECT_EQ(next_window(1, 0, 0, 8, 8, p), 2);
}

}  // namespace
}  // namespace collwrap::bench
