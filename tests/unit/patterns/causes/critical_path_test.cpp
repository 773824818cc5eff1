// The backward walk of the critical path through point-to-point messages and collectives.
#include "critical_path.h"

#include <gtest/gtest.h>

#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

TimeNs segment_on_path(const CriticalPath& p, std::uint32_t g) {
  TimeNs t = 0;
  for (std::size_t i = 0; i < p.calls.size(); ++i)
    if (p.calls[i] == g) t += p.segment_time[i];
  return t;
}

TEST(CriticalPath, FollowsTheChainOfMessagesBackToTheLateRank) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.trace, run.graph);
  const CriticalPath p = critical_path(run.trace, run.graph, t);
  EXPECT_EQ(p.length, 440);  // the whole run, each nanosecond once
  // Backwards: rank 0's MPI_Finalize waits for rank 1 (the first of the two that enter last),
  // whose receive waited for rank 0's send.
  EXPECT_EQ(p.hops, 2u);
  EXPECT_EQ(segment_on_path(p, run.graph.global(0, 1)), 400);  // rank 0's compute
  EXPECT_EQ(segment_on_path(p, run.graph.global(2, 1)), 0);    // rank 2's compute is not on it
  EXPECT_EQ(run.graph.call_loc[p.calls.back()], 0u);           // it starts on rank 0
}

TEST(CriticalPath, GoesThroughTheLastRankToEnterACollective) {
  const TracedRun run(imbalance_before_allreduce({100, 300, 100, 150}));
  const ReplayTimes t = replay_trace(run.trace, run.graph);
  const CriticalPath p = critical_path(run.trace, run.graph, t);
  EXPECT_EQ(p.length, t.end);
  EXPECT_EQ(segment_on_path(p, run.graph.global(1, 1)), 300);
  for (std::uint32_t r : {0u, 2u, 3u}) EXPECT_EQ(segment_on_path(p, run.graph.global(r, 1)), 0);
}

TEST(CriticalPathPieces, OnePiecePerRankVisitedEarliestFirstAndContiguous) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.trace, run.graph);
  const CriticalPath p = critical_path(run.trace, run.graph, t);
  const std::vector<CriticalPathPiece> pieces = critical_path_pieces(run.graph, t, p);
  ASSERT_EQ(pieces.size(), p.hops + 1u);  // rank 0, rank 1, then rank 0's MPI_Finalize
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
  EXPECT_EQ(covered, p.length);
  // Rank 0's compute (400 ns) is inside its piece.
  EXPECT_GE(pieces[0].to - pieces[0].from, 400);
}

}  // namespace
}  // namespace collwrap::testing
