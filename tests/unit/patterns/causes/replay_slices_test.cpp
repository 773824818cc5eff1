// The replay in slices of time: cut where the recorded Leaves pass given instants, every slice
// replayed from only what the slices before hand on gives the times of the whole replay.
#include "replay_slices.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

// Rank 0's MPI_Send lasts from 100 to 500 ns; rank 1 receives the message at 150 and goes on.
// Cut at 210 ns, the send is in the second slice and the receive, which waits for its Enter,
// in the first: the first slice enters the send, as the call after its last on rank 0.
Trace long_send() {
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Init", 0, 10, "l.c", 1);
  b.send(b.call(0, "MPI_Send", 100, 500, "l.c", 2), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 50, 150, "l.c", 3), 0, 0, 8);
  b.call(1, "MPI_Comm_rank", 200, 210, "l.c", 4);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Finalize", 510, 520, "l.c", 5);
  return b.finish();
}

// Rank 0 computes 5 s before its MPI_Send; rank 1 waits 6 s in MPI_Recv: a segment and an own
// cost beyond the graph's 32-bit lengths.
Trace long_compute() {
  constexpr TimeNs kSecond = 1'000'000'000;
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Init", 0, 10, "l.c", 1);
  b.send(b.call(0, "MPI_Send", 5 * kSecond, 5 * kSecond + 10, "l.c", 2), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 100, 11 * kSecond, "l.c", 3), 0, 0, 8);
  for (int r = 0; r < 2; ++r)
    b.call(r, "MPI_Finalize", 11 * kSecond + 10, 11 * kSecond + 20, "l.c", 4);
  return b.finish();
}

void expect_same_times(const ReplayTimes& sliced, const ReplayTimes& whole) {
  EXPECT_EQ(sliced.enter, whole.enter);
  EXPECT_EQ(sliced.waited_for, whole.waited_for);
  EXPECT_EQ(sliced.end, whole.end);
  EXPECT_EQ(sliced.broken_gates, whole.broken_gates);
}

TEST(ReplaySlices, EverySliceFromWhatTheOnesBeforeHandOnGivesTheWholeReplay) {
  std::vector<Trace> traces;
  traces.push_back(neighbours_and_collectives());
  traces.push_back(delay_chain());
  traces.push_back(moving_imbalance());
  traces.push_back(imbalance_before_allreduce({100, 300, 100, 200}));
  traces.push_back(long_send());
  traces.push_back(long_compute());
  for (Trace& trace : traces) {
    const TracedRun run(std::move(trace));
    std::vector<ScaledSegment> halved;
    for (std::uint32_t g = 1; g < run.graph.calls(); g += 3) halved.push_back({g, 0.5f});
    std::vector<ReplayOptions> replays(3);
    replays[1].network = NetworkModel::Ideal;
    replays[2].scaled_segments = halved;
    for (std::size_t slices = 1; slices <= 7; ++slices) {
      const SliceCuts cuts = cut_at_recorded_leaves(run.trace, run.graph, slices);
      ASSERT_EQ(cuts.slices(), slices);
      ASSERT_TRUE(replays_slice_by_slice(run.graph, cuts)) << slices << " slices";
      for (const ReplayOptions& options : replays) {
        SCOPED_TRACE(std::to_string(slices) + " slices, network " +
                     std::to_string(static_cast<int>(options.network)) + ", " +
                     std::to_string(options.scaled_segments.size()) + " scaled");
        expect_same_times(replay_in_slices(run.graph, cuts, options),
                          replay_trace(run.graph, options));
      }
    }
  }
}

TEST(ReplaySlices, CutsDivideTheCallsEvenlyAtTheSameInstantOnEveryLocation) {
  const TracedRun run(neighbours_and_collectives());
  const std::size_t calls = run.graph.calls();
  const SliceCuts cuts = cut_at_recorded_leaves(run.trace, run.graph, 4);
  for (std::size_t s = 0; s < cuts.slices(); ++s) {
    std::size_t in_slice = 0;
    TimeNs latest = 0, earliest_after = std::numeric_limits<TimeNs>::max();
    for (std::uint32_t loc = 0; loc < cuts.locations; ++loc) {
      const std::uint32_t from = cuts.row(s)[loc], to = cuts.row(s + 1)[loc];
      ASSERT_LE(from, to);
      in_slice += to - from;
      if (to > from) latest = std::max(latest, recorded_leave(run.trace, run.graph, to - 1));
      if (to < run.graph.loc_first_call[loc + 1])
        earliest_after = std::min(earliest_after, recorded_leave(run.trace, run.graph, to));
    }
    EXPECT_NEAR(static_cast<double>(in_slice), calls / 4.0, run.trace.locations.size());
    EXPECT_LE(latest, earliest_after) << "slice " << s;
  }
}

// A receive recorded as left before its send was entered (a clock-condition violation): cut
// where its slice ends before the send's Enter, the slices cannot be replayed in turn.
TEST(ReplaySlices, AClockConditionViolationAcrossACutIsFound) {
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Init", 0, 10, "v.c", 1);
  b.call(0, "MPI_Comm_rank", 90, 95, "v.c", 2);
  b.send(b.call(0, "MPI_Send", 100, 110, "v.c", 3), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 50, 60, "v.c", 4), 0, 0, 8);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Finalize", 120, 130, "v.c", 5);
  const TracedRun run(b.finish());
  const SliceCuts cuts = cut_at_recorded_leaves(run.trace, run.graph, 2);
  EXPECT_EQ(cuts.row(1)[0], run.graph.global(0, 1));  // rank 0's MPI_Comm_rank begins slice 1
  EXPECT_EQ(cuts.row(1)[1], run.graph.global(1, 2));  // after rank 1's MPI_Recv
  EXPECT_FALSE(replays_slice_by_slice(run.graph, cuts));
  EXPECT_TRUE(replays_slice_by_slice(run.graph, cut_at_recorded_leaves(run.trace, run.graph, 1)));

  // The same in a barrier: rank 1 enters it after rank 0 has left.
  TraceBuilder c(2);
  for (int r = 0; r < 2; ++r) c.call(r, "MPI_Init", 0, 10, "v.c", 1);
  c.collective(c.call(0, "MPI_Barrier", 20, 30, "v.c", 2), CollOp::Barrier);
  c.call(1, "MPI_Comm_rank", 90, 95, "v.c", 3);
  c.collective(c.call(1, "MPI_Barrier", 100, 110, "v.c", 2), CollOp::Barrier);
  for (int r = 0; r < 2; ++r) c.call(r, "MPI_Finalize", 120, 130, "v.c", 5);
  const TracedRun barrier(c.finish());
  const SliceCuts at_95 = cut_at_recorded_leaves(barrier.trace, barrier.graph, 2);
  EXPECT_EQ(at_95.row(1)[0], barrier.graph.global(0, 2));  // rank 0's barrier in slice 0
  EXPECT_EQ(at_95.row(1)[1], barrier.graph.global(1, 1));  // rank 1's MPI_Comm_rank in 1
  EXPECT_FALSE(replays_slice_by_slice(barrier.graph, at_95));
}

}  // namespace
}  // namespace collwrap::testing
