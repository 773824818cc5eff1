#include "synthetic_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

namespace collwrap::testing {

TracedRun::TracedRun(Trace t)
    : trace(std::move(t)),
      matching(match_trace(trace)),
      graph(build_replay_graph(trace, matching)) {}

// Messages arrive as their send ends; MPI_Finalize synchronizes the ranks: it ends together on
// all of them, 10 ns after the last enters.
Trace delay_chain() {
  TraceBuilder b(3);
  for (int r = 0; r < 3; ++r) b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
  b.send(b.call(0, "MPI_Send", 410, 420, "sync.c", 20), 1, 0, 8);
  b.call(0, "MPI_Finalize", 420, 440, "sync.c", 30);
  b.recv(b.call(1, "MPI_Recv", 110, 420, "sync.c", 10), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 420, 430, "sync.c", 20), 2, 0, 8);
  b.call(1, "MPI_Finalize", 430, 440, "sync.c", 30);
  b.recv(b.call(2, "MPI_Recv", 110, 430, "sync.c", 10), 1, 0, 8);
  b.call(2, "MPI_Finalize", 430, 440, "sync.c", 30);
  return b.finish();
}

Trace imbalance_before_allreduce(const std::vector<TimeNs>& work) {
  const int ranks = static_cast<int>(work.size());
  TraceBuilder b(ranks);
  const TimeNs last = 10 + *std::max_element(work.begin(), work.end());
  for (int r = 0; r < ranks; ++r) {
    b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
    b.collective(b.call(r, "MPI_Allreduce", 10 + work[r], last + 10, "sync.c", 10),
                 CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
    b.call(r, "MPI_Finalize", last + 10, last + 20, "sync.c", 30);
  }
  return b.finish();
}

Trace moving_imbalance() {
  constexpr int kRanks = 4;
  TraceBuilder b(kRanks);
  for (int r = 0; r < kRanks; ++r) b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
  TimeNs start = 10;
  for (int round = 0; round < kRanks; ++round) {
    const TimeNs end = start + 400 + 10;
    for (int r = 0; r < kRanks; ++r)
      b.collective(b.call(r, "MPI_Allreduce", start + (r == round ? 400 : 100), end, "sync.c", 10),
                   CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
    start = end;
  }
  for (int r = 0; r < kRanks; ++r) b.call(r, "MPI_Finalize", start, start + 10, "sync.c", 30);
  return b.finish();
}

Trace neighbours_and_collectives(int iterations) {
  constexpr int kRanks = 4;
  TraceBuilder b(kRanks);
  std::vector<TimeNs> t(kRanks, 10), isend_enter(kRanks);
  const auto work = [](int i, int r, int salt) {
    return static_cast<TimeNs>(50 + ((i * 7919 + r * 104729 + salt * 31) % 397));
  };
  for (int r = 0; r < kRanks; ++r) b.call(r, "MPI_Init", 0, 10, "n.c", 1);
  for (int i = 0; i < iterations; ++i) {
    std::vector<TimeNs> wait_enter(kRanks);
    for (int r = 0; r < kRanks; ++r) {
      const TimeNs e = t[r] + work(i, r, 1);
      b.irecv_request(b.call(r, "MPI_Irecv", e, e + 5, "n.c", 10), 2 * i + 1);
      b.isend(b.call(r, "MPI_Isend", e + 5, e + 10, "n.c", 11), (r + 1) % kRanks, i, 8, 2 * i + 2);
      isend_enter[r] = e + 5;
      wait_enter[r] = e + 10 + work(i, r, 2) % 100;
    }
    for (int r = 0; r < kRanks; ++r) {
      const int left = (r + kRanks - 1) % kRanks;
      const TimeNs leave = std::max(wait_enter[r], isend_enter[left] + 20) + 5;
      const CallRef c = b.call(r, "MPI_Waitall", wait_enter[r], leave, "n.c", 12);
      b.irecv(c, left, i, 8, 2 * i + 1);
      b.isend_complete(c, 2 * i + 2);
      t[r] = leave;
    }
    if (i % 5 == 4 || i % 7 == 6) {
      const bool bcast = i % 5 != 4;
      std::vector<TimeNs> enter(kRanks);
      for (int r = 0; r < kRanks; ++r) enter[r] = t[r] + work(i, r, 3);
      const TimeNs last = *std::max_element(enter.begin(), enter.end());
      for (int r = 0; r < kRanks; ++r) {
        const TimeNs leave =
            bcast ? (r == 1 ? enter[r] : std::max(enter[r], enter[1] + 20)) + 5 : last + 10 + 3 * r;
        b.collective(b.call(r, bcast ? "MPI_Bcast" : "MPI_Allreduce", enter[r], leave, "n.c",
                            bcast ? 20 : 21),
                     bcast ? CollOp::Bcast : CollOp::Allreduce, 0, bcast ? 1 : kNoWorldRank, 8, 8);
        t[r] = leave;
      }
    }
  }
  const TimeNs last = *std::max_element(t.begin(), t.end()) + 50;
  for (int r = 0; r < kRanks; ++r) b.call(r, "MPI_Finalize", t[r] + 30, last + 10, "n.c", 30);
  return b.finish();
}

void expect_same_delay_costs(const DelayCosts& actual, const DelayCosts& expected) {
  EXPECT_EQ(actual.short_term, expected.short_term);
  EXPECT_EQ(actual.long_term, expected.long_term);
  EXPECT_EQ(actual.largest_charge, expected.largest_charge);
  EXPECT_EQ(actual.total_wait, expected.total_wait);
  EXPECT_EQ(actual.residual, expected.residual);
  EXPECT_EQ(actual.waits, expected.waits);
  ASSERT_EQ(actual.charges.size(), expected.charges.size());
  for (std::size_t i = 0; i < actual.charges.size(); ++i) {
    const WaitCharge &x = actual.charges[i], &y = expected.charges[i];
    EXPECT_EQ(std::tie(x.segment_loc, x.segment_type, x.wait_loc, x.wait_site),
              std::tie(y.segment_loc, y.segment_type, y.wait_loc, y.wait_site))
        << i;
    EXPECT_EQ(x.short_term, y.short_term) << i;
    EXPECT_EQ(x.long_term, y.long_term) << i;
  }
}

}  // namespace collwrap::testing
