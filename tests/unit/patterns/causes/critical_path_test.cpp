// The backward walk of the critical path through point-to-point messages and collectives.
#include "critical_path.h"

#include <gtest/gtest.h>

#include <string>

#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

struct WalkedPath {
  std::vector<CriticalPathStep> steps;  // last first, as visited
  CriticalPathTotals totals;
  std::vector<CriticalPathPiece> pieces;
};

WalkedPath walk(const TracedRun& run, const ReplayTimes& t) {
  WalkedPath p;
  CriticalPathPieces pieces(run.graph, t);
  p.totals = walk_critical_path(run.graph, t, [&](const CriticalPathStep& s) {
    p.steps.push_back(s);
    pieces.add(s);
  });
  p.pieces = pieces.finish();
  return p;
}

TimeNs segment_on_path(const WalkedPath& p, std::uint32_t g) {
  TimeNs t = 0;
  for (const CriticalPathStep& s : p.steps)
    if (s.call == g) t += s.segment_time;
  return t;
}

TEST(CriticalPath, FollowsTheChainOfMessagesBackToTheLateRank) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.graph);
  const WalkedPath p = walk(run, t);
  EXPECT_EQ(p.totals.length, 440);  // the whole run, each nanosecond once
  // Backwards: rank 0's MPI_Finalize waits for rank 1 (the first of the two that enter last),
  // whose receive waited for rank 0's send.
  EXPECT_EQ(p.totals.hops, 2u);
  EXPECT_EQ(segment_on_path(p, run.graph.global(0, 1)), 400);  // rank 0's compute
  EXPECT_EQ(segment_on_path(p, run.graph.global(2, 1)), 0);    // rank 2's compute is not on it
  EXPECT_EQ(run.graph.call_loc[p.steps.back().call], 0u);      // it starts on rank 0
}

TEST(CriticalPath, GoesThroughTheLastRankToEnterACollective) {
  const TracedRun run(imbalance_before_allreduce({100, 300, 100, 150}));
  const ReplayTimes t = replay_trace(run.graph);
  const WalkedPath p = walk(run, t);
  EXPECT_EQ(p.totals.length, t.end);
  EXPECT_EQ(segment_on_path(p, run.graph.global(1, 1)), 300);
  for (std::uint32_t r : {0u, 2u, 3u}) EXPECT_EQ(segment_on_path(p, run.graph.global(r, 1)), 0);
}

TEST(CriticalPathPieces, OnePiecePerRankVisitedEarliestFirstAndContiguous) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.graph);
  const WalkedPath p = walk(run, t);
  const std::vector<CriticalPathPiece>& pieces = p.pieces;
  ASSERT_EQ(pieces.size(), p.totals.hops + 1u);  // rank 0, rank 1, then rank 0's MPI_Finalize
  EXPECT_EQ(pieces[0].loc, 0u);
  EXPECT_EQ(pieces[1].loc, 1u);
  EXPECT_EQ(pieces[2].loc, 0u);
  EXPECT_EQ(pieces.front().from, run.trace.begin);
  EXPECT_EQ(pieces.back().to, t.end);
  TimeNs covered = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_LT(pieces[i].from, pieces[i].to);
    if (i + 1 < pieces.size()) {
      EXPECT_EQ(pieces[i].to, pieces[i + 1].from);
    }
    covered += pieces[i].to - pieces[i].from;
  }
  EXPECT_EQ(covered, p.totals.length);
  // Rank 0's compute (400 ns) is inside its piece.
  EXPECT_GE(pieces[0].to - pieces[0].from, 400);
}

// Walked slice by slice from the last, the token handed back from slice to slice, the path
// takes the same steps as over the whole replay, on any number of slices.
TEST(CriticalPath, InSlicesOfTimeThePathTakesTheSameSteps) {
  std::vector<Trace> traces;
  traces.push_back(neighbours_and_collectives());
  traces.push_back(delay_chain());
  traces.push_back(moving_imbalance());
  for (Trace& trace : traces) {
    const TracedRun run(std::move(trace));
    const WalkedPath whole = walk(run, replay_trace(run.graph));
    ASSERT_GT(whole.totals.hops, 0u);
    for (std::size_t slices = 1; slices <= 7; ++slices) {
      SCOPED_TRACE(std::to_string(slices) + " slices");
      const SliceCuts cuts = cut_at_recorded_leaves(run.trace, run.graph, slices);
      std::vector<CriticalPathStep> steps;
      const CriticalPathTotals totals = walk_critical_path_in_slices(
          replay_slices(run.graph, cuts), cuts,
          [&](const CriticalPathStep& step) { steps.push_back(step); });
      EXPECT_EQ(totals.length, whole.totals.length);
      EXPECT_EQ(totals.hops, whole.totals.hops);
      ASSERT_EQ(steps.size(), whole.steps.size());
      for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].call, whole.steps[i].call) << i;
        EXPECT_EQ(steps[i].call_time, whole.steps[i].call_time) << i;
        EXPECT_EQ(steps[i].segment_time, whole.steps[i].segment_time) << i;
      }
    }
  }
}

}  // namespace
}  // namespace collwrap::testing
