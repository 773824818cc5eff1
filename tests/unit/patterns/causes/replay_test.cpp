// The forward replay: as recorded it gives back the recorded times; on an ideal network
// messages and collectives take no time; scaled segments move everything that depends on them.
#include "replay.h"

#include <gtest/gtest.h>

#include <array>
#include <set>

#include "replay_slices.h"
#include "slice_end_function.h"
#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

TEST(Replay, AsRecordedGivesBackTheRecordedTimes) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.graph);
  for (std::uint32_t g = 0; g < run.graph.calls(); ++g) {
    EXPECT_EQ(t.enter[g], recorded_enter(run.trace, run.graph, g)) << g;
    EXPECT_EQ(t.leave(g), recorded_leave(run.trace, run.graph, g)) << g;
  }
  EXPECT_EQ(t.end, 440);
  EXPECT_EQ(t.broken_gates, 0u);
}

TEST(Replay, FindsWhoEachWaitWaitedFor) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.graph);
  const std::uint32_t recv1 = run.graph.global(1, 1), send0 = run.graph.global(0, 1);
  const std::uint32_t recv2 = run.graph.global(2, 1), send1 = run.graph.global(1, 2);
  EXPECT_EQ(t.waited_for[recv1], send0);
  EXPECT_EQ(t.wait(recv1), 300);
  EXPECT_EQ(t.waited_for[recv2], send1);
  EXPECT_EQ(t.wait(recv2), 310);
  EXPECT_EQ(t.waited_for[send0], kNone);  // standard sends are eager
}

TEST(Replay, IdealNetworkTakesNoTimeInMpi) {
  const TracedRun run(delay_chain());
  const ReplayTimes t = replay_trace(run.graph, {NetworkModel::Ideal, {}});
  // Rank 0: Init 0..0, 400 of compute, Send 400..400; everyone else only waits for it.
  EXPECT_EQ(t.enter[run.graph.global(0, 1)], 400);
  EXPECT_EQ(t.leave(run.graph.global(1, 1)), 400);
  EXPECT_EQ(t.leave(run.graph.global(2, 1)), 400);
  EXPECT_EQ(t.end, 400);
}

TEST(Replay, IdealNetworkCollectiveEndsAtTheLastEnter) {
  const TracedRun run(imbalance_before_allreduce({100, 100, 100, 200}));
  const ReplayTimes t = replay_trace(run.graph, {NetworkModel::Ideal, {}});
  for (std::uint32_t r = 0; r < 4; ++r) EXPECT_EQ(t.leave(run.graph.global(r, 1)), 200) << r;
  EXPECT_EQ(t.waited_for[run.graph.global(0, 1)], run.graph.global(3, 1));
}

TEST(Replay, IdealNetworkNeighborhoodCollectiveWaitsOnlyForInNeighbors) {
  // A chain 0 → 1 → 2 as a topology; rank 0 computes 200, the others 100.
  TraceBuilder b(3);
  b.role("MPI_Neighbor_allgather", RegionRole::CollOther);
  const std::uint32_t chain = b.topology_comm({0, 1, 2}, {{}, {0}, {1}});
  const TimeNs work[] = {200, 100, 100};
  for (int r = 0; r < 3; ++r) {
    b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
    b.collective(b.call(r, "MPI_Neighbor_allgather", 10 + work[r], 220, "sync.c", 10),
                 CollOp::Allgather, chain, kNoWorldRank, 8, 8);
    b.call(r, "MPI_Finalize", 220, 230, "sync.c", 30);
  }
  const TracedRun run(b.finish());
  const ReplayTimes t = replay_trace(run.graph, {NetworkModel::Ideal, {}});
  // MPI takes no time: ranks enter after their compute alone (0 + work).
  EXPECT_EQ(t.leave(run.graph.global(0, 1)), 200);
  EXPECT_EQ(t.leave(run.graph.global(1, 1)), 200);  // waits for rank 0
  EXPECT_EQ(t.waited_for[run.graph.global(1, 1)], run.graph.global(0, 1));
  EXPECT_EQ(t.leave(run.graph.global(2, 1)), 100);  // rank 1 entered at 100; rank 0 is no source
}

// Scaled segments on several locations, several per location: each location's cursor finds
// its own. Each rank takes the lead in one of four rounds (400 against 100).
TEST(Replay, ScaledSegmentsOnEveryLocationEachApplyOnce) {
  const TracedRun run(moving_imbalance());
  const ReplayTimes as_recorded = replay_trace(run.graph);
  std::vector<ScaledSegment> scale;
  for (std::uint32_t r = 0; r < 4; ++r)
    scale.push_back({run.graph.global(r, 1 + r), 0.25f});  // the leader's 400 becomes 100
  const ReplayTimes t = replay_trace(run.graph, {NetworkModel::AsRecorded, scale});
  for (std::uint32_t r = 0; r < 4; ++r)
    for (std::uint32_t round = 0; round < 4; ++round) {
      const std::uint32_t g = run.graph.global(r, 1 + round);
      const TimeNs previous = t.leave(g - 1);
      EXPECT_EQ(t.enter[g] - previous, 100) << r << " " << round;  // every segment now 100
    }
  EXPECT_EQ(as_recorded.end - t.end, 4 * 300);  // each round 300 shorter
}

TEST(Replay, ScaledSegmentMovesTheRunsThatDependOnIt) {
  const TracedRun run(delay_chain());
  // Rank 0's 400 of compute becomes 100.
  const std::vector<ScaledSegment> scale{{run.graph.global(0, 1), 0.25f}};
  const ReplayTimes t = replay_trace(run.graph, {NetworkModel::AsRecorded, scale});
  EXPECT_EQ(t.enter[run.graph.global(0, 1)], 110);
  EXPECT_EQ(t.waited_for[run.graph.global(1, 1)], kNone);  // no wait left on rank 1
  EXPECT_EQ(t.end, 140);  // 300 earlier: the transfer times stay as recorded
}

TEST(Replay, SynchronousSendWaitsForTheReceive) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Ssend", 0, 500, "s.c", 1), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 490, 500, "s.c", 2), 0, 0, 8);
  const TracedRun run(b.finish());
  const ReplayTimes t = replay_trace(run.graph);
  EXPECT_EQ(t.waited_for[run.graph.global(0, 0)], run.graph.global(1, 0));
  EXPECT_EQ(t.wait(run.graph.global(0, 0)), 490);
}

TEST(Replay, OwnCostIsWhatACallTookBeyondItsLatestDependency) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 100, 110, "o.c", 1), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 50, 130, "o.c", 2), 0, 0, 8);  // waits 50 for the send
  b.send(b.call(0, "MPI_Send", 300, 305, "o.c", 3), 1, 1, 8);
  b.recv(b.call(1, "MPI_Recv", 200, 290, "o.c", 4), 0, 1, 8);  // left before the send began
  const TracedRun run(b.finish());
  EXPECT_EQ(run.graph.own_cost(run.graph.global(0, 0)), 10);  // no gate: the whole call
  EXPECT_EQ(run.graph.own_cost(run.graph.global(1, 0)), 30);  // 130 - max(50, 100)
  EXPECT_EQ(run.graph.own_cost(run.graph.global(1, 1)), 0);   // never negative
}

TEST(Replay, SegmentsAndOwnCostsOf4SecondsOrMoreKeepTheirLength) {
  constexpr TimeNs kSecond = 1'000'000'000;
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 5 * kSecond, 5 * kSecond + 10, "l.c", 1), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 100, 11 * kSecond, "l.c", 2), 0, 0, 8);
  const TracedRun run(b.finish());
  const std::uint32_t send = run.graph.global(0, 0), recv = run.graph.global(1, 0);
  EXPECT_EQ(run.graph.segment(send), 5 * kSecond - run.trace.begin);
  EXPECT_EQ(run.graph.own_cost(recv), 6 * kSecond);  // 11 s - the send's Enter at 5 s
  EXPECT_EQ(run.graph.own_cost(send), 10);
  EXPECT_EQ(replay_trace(run.graph).end, 11 * kSecond);
}

TEST(Replay, ReplayEndsAreTheEndsOfTheFullReplays) {
  const TracedRun chain(delay_chain());
  const std::uint32_t cut = chain.graph.global(0, 1);
  // Lane 0 cuts rank 0's sleeping segment to a quarter, lane 1 changes nothing.
  const std::vector<ScaledSegment> quarter{{cut, 0.25f}};
  const std::array<std::span<const ScaledSegment>, 2> scaled{quarter, {}};
  std::array<std::vector<TimeNs>, 2> enter;  // reused, as the what-if questions do
  std::array<TimeNs, 2> ends{};
  replay_ends(chain.graph, scaled, ends, enter);
  EXPECT_EQ(ends[0], 140);
  EXPECT_EQ(ends[1], 440);
  const TracedRun imbalance(imbalance_before_allreduce({100, 100, 100, 200}));
  const std::array<std::span<const ScaledSegment>, 1> none{};
  std::array<TimeNs, 1> end{};
  replay_ends(imbalance.graph, none, end, enter);
  EXPECT_EQ(end[0], replay_trace(imbalance.graph).end);
  EXPECT_EQ(enter[0], replay_trace(imbalance.graph).enter);
}

// The replays move the calls, not the code between them: every compute segment keeps its
// recorded length, as recorded and on an ideal network, so that what reads a replay's segments
// reads them from the graph (ReplayGraph::segment); only a scaled segment changes.
TEST(Replay, EverySegmentKeepsItsRecordedLengthUnlessScaled) {
  std::vector<Trace> traces;
  traces.push_back(delay_chain());
  traces.push_back(moving_imbalance());
  for (Trace& trace : traces) {
    const TracedRun run(std::move(trace));
    const std::vector<ScaledSegment> half{{run.graph.global(0, 1), 0.5f}};
    for (const ReplayOptions& options :
         {ReplayOptions{NetworkModel::AsRecorded, {}}, ReplayOptions{NetworkModel::Ideal, {}},
          ReplayOptions{NetworkModel::AsRecorded, half}}) {
      const ReplayTimes t = replay_trace(run.graph, options);
      for (std::uint32_t g = 0; g < run.graph.calls(); ++g) {
        const bool first = g == run.graph.loc_first_call[run.graph.call_loc[g]];
        const TimeNs replayed = t.enter[g] - (first ? run.trace.begin : t.leave(g - 1));
        const TimeNs recorded = run.graph.segment(g);
        EXPECT_EQ(replayed, options.scaled_segments.empty() || g != half[0].call
                                ? recorded
                                : (recorded + 1) / 2)
            << g;
      }
    }
  }
}

// Every lane of a pass ends where the same question replayed alone ends, whatever the number
// of lanes.
TEST(Replay, EachLaneOfAPassEndsAsItsReplayAlone) {
  const TracedRun run(moving_imbalance());
  const std::uint32_t calls = static_cast<std::uint32_t>(run.graph.calls());
  std::vector<std::vector<ScaledSegment>> questions(kReplayLanes);
  for (std::uint32_t g = 0; g < calls; ++g)
    for (std::uint32_t lane = 0; lane < kReplayLanes; ++lane)
      if ((g + lane) % (lane + 2) == 0) questions[lane].push_back({g, 0.1f * (lane + 1)});
  std::vector<TimeNs> alone;
  for (const std::vector<ScaledSegment>& q : questions)
    alone.push_back(replay_trace(run.graph, {NetworkModel::AsRecorded, q}).end);
  ASSERT_GT(std::set<TimeNs>(alone.begin(), alone.end()).size(), 1u);  // the lanes differ
  std::array<std::vector<TimeNs>, kReplayLanes> enter;
  for (std::size_t lanes = 1; lanes <= kReplayLanes; ++lanes) {
    const std::vector<std::span<const ScaledSegment>> scaled(questions.begin(),
                                                             questions.begin() + lanes);
    std::vector<TimeNs> ends(lanes);
    replay_ends(run.graph, scaled, ends, enter);
    for (std::size_t lane = 0; lane < lanes; ++lane)
      EXPECT_EQ(ends[lane], alone[lane]) << lanes << " lanes, lane " << lane;
  }
}

// Two ranks that each send synchronously to the other before receiving: the sends wait for
// receives that follow them, a cycle that only a damaged trace holds; the replay breaks it.
Trace crossed_synchronous_sends() {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Ssend", 100, 400, "x.c", 1), 1, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 410, 420, "x.c", 2), 1, 0, 8);
  b.send(b.call(1, "MPI_Ssend", 150, 405, "x.c", 1), 0, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 406, 430, "x.c", 2), 0, 0, 8);
  return b.finish();
}

// Rank 0 enters a barrier and then receives from rank 1, whose synchronous send, before its
// own barrier, completes only once that receive is posted: a cycle the replay breaks at rank
// 0's barrier, as if it did not wait there. Rank 2 enters the barrier last, and rank 1
// computes long after it, so that the run's end follows from rank 2's entry, through the
// barrier on rank 1.
Trace barrier_crossed_by_a_synchronous_send() {
  TraceBuilder b(3);
  b.collective(b.call(0, "MPI_Barrier", 1000, 3020, "y.c", 1), CollOp::Barrier);
  b.recv(b.call(0, "MPI_Recv", 3030, 3040, "y.c", 2), 1, 0, 8);
  b.send(b.call(1, "MPI_Ssend", 10, 3035, "y.c", 3), 0, 0, 8);
  b.collective(b.call(1, "MPI_Barrier", 3036, 3045, "y.c", 1), CollOp::Barrier);
  b.call(1, "MPI_Comm_rank", 8000, 8010, "y.c", 4);
  b.collective(b.call(2, "MPI_Barrier", 3000, 3050, "y.c", 1), CollOp::Barrier);
  return b.finish();
}

// Rank 2 waits in one MPI_Waitall for messages from ranks 0 and 1. As recorded, rank 1's send
// comes last (after a call of 400 ns of its own); on an ideal network, where that call takes
// no time, rank 0's: the two replays' Waitall waited for different calls.
Trace latest_sender_moves() {
  TraceBuilder b(3);
  b.send(b.call(0, "MPI_Send", 300, 310, "m.c", 1), 2, 0, 8);
  b.call(1, "MPI_Comm_split", 0, 400, "m.c", 2);
  b.send(b.call(1, "MPI_Send", 410, 420, "m.c", 3), 2, 0, 8);
  b.irecv_request(b.call(2, "MPI_Irecv", 0, 1, "m.c", 4), 1);
  b.irecv_request(b.call(2, "MPI_Irecv", 1, 2, "m.c", 4), 2);
  const CallRef all = b.call(2, "MPI_Waitall", 5, 500, "m.c", 5);
  b.irecv(all, 0, 0, 8, 1);
  b.irecv(all, 1, 0, 8, 2);
  return b.finish();
}

// Runs whose ranks wait for each other in chains, in collectives and in one call for several
// messages, and one whose crossed synchronous sends make a cycle the replay breaks.
std::vector<Trace> waiting_and_crossed_runs() {
  std::vector<Trace> traces;
  traces.push_back(delay_chain());
  traces.push_back(neighbours_and_collectives());
  traces.push_back(crossed_synchronous_sends());
  traces.push_back(latest_sender_moves());
  return traces;
}

// The replay as recorded and the one on an ideal network, run in one pass, are each the replay
// alone: every Enter, whom every call waited for, the end, the gates broken.
TEST(Replay, RecordedAndIdealInOnePassAreEachTheReplayAlone) {
  std::vector<Trace> traces = waiting_and_crossed_runs();
  traces.push_back(moving_imbalance());
  std::size_t waits_differ = 0;
  for (Trace& trace : traces) {
    const TracedRun run(std::move(trace));
    const ReplayTimes recorded = replay_trace(run.graph);
    const ReplayTimes ideal = replay_trace(run.graph, {NetworkModel::Ideal, {}});
    ReplayTimes pass_recorded, pass_ideal;
    pass_recorded.enter.assign(3, 7);  // stale buffers, as reused ones are
    replay_recorded_and_ideal(run.graph, pass_recorded, pass_ideal);
    for (const auto& [alone, pass] :
         {std::pair(&recorded, &pass_recorded), std::pair(&ideal, &pass_ideal)}) {
      EXPECT_EQ(pass->enter, alone->enter);
      EXPECT_EQ(pass->waited_for, alone->waited_for);
      EXPECT_EQ(pass->end, alone->end);
      EXPECT_EQ(pass->broken_gates, alone->broken_gates);
      EXPECT_EQ(pass->own_costs, alone->own_costs);
      EXPECT_EQ(pass->graph, &run.graph);
    }
    waits_differ += recorded.waited_for != ideal.waited_for;
  }
  // Each lane keeps whom its own calls waited for, and its own broken gates.
  EXPECT_GT(waits_differ, 0u);
  const TracedRun crossed(crossed_synchronous_sends());
  EXPECT_GT(replay_trace(crossed.graph).broken_gates, 0u);
  const TracedRun moves(latest_sender_moves());
  const std::uint32_t waitall = moves.graph.global(2, 2);
  EXPECT_EQ(replay_trace(moves.graph).waited_for[waitall], moves.graph.global(1, 1));
  EXPECT_EQ(replay_trace(moves.graph, {NetworkModel::Ideal, {}}).waited_for[waitall],
            moves.graph.global(0, 0));
}

// A replay keeps the order in which it processed the calls (ReplaySchedule), gates it broke
// included; walked backwards in that order, a slice's end as a function of what is handed to
// it (slice_end_function.h) is the replay's end, with segments scaled and where the replay
// broke a cycle of gates, here on one slice of the whole run (the divided analysis's tests
// cut more).
TEST(Replay, TheEndFoundBackwardsInTheReplaysOrderIsTheReplaysEnd) {
  std::vector<Trace> traces = waiting_and_crossed_runs();
  traces.push_back(barrier_crossed_by_a_synchronous_send());
  std::size_t broken = 0;
  for (Trace& trace : traces) {
    const TracedRun run(std::move(trace));
    const SliceCuts cuts = cut_at_recorded_leaves(run.trace, run.graph, 1);
    const SliceGraph part = cut_slice_graph(run.graph, cuts, 0, {});
    ReplaySchedule schedule;
    ReplayTimes times;
    replay_slice(part, times, {}, {}, {}, &schedule);
    EXPECT_EQ(schedule.calls, run.graph.calls());
    EXPECT_EQ(schedule.broken.size(), replay_trace(run.graph).broken_gates);
    broken += schedule.broken.size();
    std::array<std::vector<ScaledSegment>, 2> scaled;
    for (std::uint32_t g = 0; g < run.graph.calls(); g += 2) scaled[0].push_back({g, 3.0f});
    for (std::uint32_t g = 1; g < run.graph.calls(); g += 3) scaled[1].push_back({g, 0.25f});
    const std::array<std::span<const ScaledSegment>, 2> lanes{scaled[0], scaled[1]};
    const std::vector<SliceEndFunction> end_of = slice_end_functions(part, schedule, lanes, {});
    ASSERT_EQ(end_of.size(), 2u);
    for (std::size_t lane = 0; lane < 2; ++lane)
      EXPECT_EQ(end_of[lane]({}),
                replay_trace(run.graph, {NetworkModel::AsRecorded, scaled[lane]}).end)
          << "lane " << lane;
  }
  EXPECT_GT(broken, 0u);
}

}  // namespace
}  // namespace collwrap::testing
