// The controlled logical clock on hand-built timelines with known skew.
#include "clock_repair.h"

#include <gtest/gtest.h>

#include "matching.h"
#include "trace_builder.h"
#include "upc_broadcast_trace.h"

namespace collwrap {
namespace {

// Rank 0 sends at 1000 ns; rank 1's clock is 400 ns behind, so its receive (really ending at
// 1200) reads 800, before the send. Rank 1 has earlier calls whose intervals must survive.
Trace skewed_message() {
  TraceBuilder b(2);
  auto send = b.call(0, "MPI_Send", 1000, 1100);
  b.send(send, 1, 0, 8);
  b.call(1, "MPI_Comm_rank", 100, 120);
  b.call(1, "MPI_Comm_size", 300, 320);
  auto recv = b.call(1, "MPI_Recv", 500, 800);
  b.recv(recv, 0, 0, 8);
  b.call(1, "MPI_Barrier", 900, 950);
  return b.finish();
}

void expect_same_times(const Trace& t, const Trace& original) {
  for (std::size_t l = 0; l < t.locations.size(); ++l) {
    EXPECT_EQ(t.locations[l].call_enter, original.locations[l].call_enter);
    EXPECT_EQ(t.locations[l].call_leave, original.locations[l].call_leave);
    for (std::uint32_t op = 0; op < t.locations[l].ops(); ++op)
      EXPECT_EQ(t.locations[l].op_time(op), original.locations[l].op_time(op));
  }
}

std::uint64_t violations(const Trace& t) {
  return match_trace(t).counts.clock_violations;
}

TEST(ClockRepair, AReceiveEndingBeforeItsSendIsMovedAfterTheSendPlusLatency) {
  Trace t = skewed_message();
  ASSERT_EQ(violations(t), 1u);
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_before, 1u);
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(violations(t), 0u);  // the matcher agrees
  const Location& recv = t.locations[1];
  EXPECT_GE(recv.op_time(0), t.locations[0].op_time(0) + ClockRepairOptions{}.latency_same_node);
  EXPECT_GE(recv.call_leave[2], recv.op_time(0));
  EXPECT_EQ(t.clock.violations_before_repair, 1u);
  EXPECT_EQ(t.clock.violations_after_repair, 0u);
  EXPECT_NEAR(t.clock.max_repair_shift_s, r.max_shift * 1e-9, 1e-15);
  // 1000 + 100 latency − 800 = 300 ns at least.
  EXPECT_GE(r.max_shift, 300);
}

TEST(ClockRepair, LocalIntervalsArePreservedApproximately) {
  Trace t = skewed_message();
  const Location before = t.locations[1];
  repair_clocks(t, match_trace(t));
  const Location& after = t.locations[1];
  // Events after the receive keep their distance to it (γ ≈ 1); earlier events move
  // smoothly instead of one interval absorbing the jump.
  EXPECT_NEAR(after.call_enter[3] - after.call_leave[2],
              before.call_enter[3] - before.call_leave[2], 1);
  EXPECT_NEAR(after.call_leave[3] - after.call_enter[3],
              before.call_leave[3] - before.call_enter[3], 1);
  for (std::size_t c = 0; c + 1 < after.calls(); ++c) {
    EXPECT_LE(after.call_leave[c], after.call_enter[c + 1]);
    const double original = static_cast<double>(before.call_enter[c + 1] - before.call_leave[c]);
    const double repaired = static_cast<double>(after.call_enter[c + 1] - after.call_leave[c]);
    EXPECT_NEAR(repaired, original, 0.02 * original + 2) << "gap after call " << c;
  }
  // The receive call's enter was amortized forward as well: it is no longer 500.
  EXPECT_GT(after.call_enter[2], before.call_enter[2]);
}

TEST(ClockRepair, AmortizationNeverPushesASendPastItsReceive) {
  // Rank 1 sends to rank 0 right before its skewed receive; moving it forward with the
  // receive's jump would create a new violation.
  TraceBuilder b(2);
  auto send = b.call(0, "MPI_Send", 1000, 1100);
  b.send(send, 1, 0, 8);
  auto recv_back = b.call(0, "MPI_Recv", 1200, 1210);
  b.recv(recv_back, 1, 1, 8);
  auto send_back = b.call(1, "MPI_Send", 600, 650);
  b.send(send_back, 0, 1, 8);
  auto recv = b.call(1, "MPI_Recv", 700, 800);
  b.recv(recv, 0, 0, 8);
  Trace t = b.finish();
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(violations(t), 0u);
  EXPECT_LE(t.locations[1].op_time(0) + ClockRepairOptions{}.latency_same_node,
            t.locations[0].op_time(1));
}

TEST(ClockRepair, NothingMovesWithoutViolations) {
  TraceBuilder b(2);
  auto send = b.call(0, "MPI_Send", 100, 150);
  b.send(send, 1, 0, 8);
  auto recv = b.call(1, "MPI_Recv", 90, 160);  // ends 10 ns after the send: below latency
  b.recv(recv, 0, 0, 8);
  for (int r = 0; r < 2; ++r) b.collective(b.call(r, "MPI_Barrier", 200 + r, 300), CollOp::Barrier);
  Trace t = b.finish();
  const Trace copy = t;
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_before, 0u);
  EXPECT_EQ(r.passes, 0u);
  EXPECT_EQ(r.max_shift, 0);
  expect_same_times(t, copy);
}

TEST(ClockRepair, CollectiveExitsFollowTheLastEntryTheyDependOn) {
  // Barrier: rank 2's clock is 5 µs behind, so it leaves "before" rank 0 entered.
  // Bcast from rank 0: rank 1 leaves before the root entered.
  TraceBuilder b(3);
  const TimeNs skew[] = {0, 0, -5000};
  for (int r = 0; r < 3; ++r)
    b.collective(b.call(r, "MPI_Barrier", 10000 + 100 * r + skew[r], 12000 + skew[r]),
                 CollOp::Barrier);
  b.collective(b.call(0, "MPI_Bcast", 20000, 20500), CollOp::Bcast, 0, 0, 8, 0);
  b.collective(b.call(1, "MPI_Bcast", 19000, 19800), CollOp::Bcast, 0, 0, 0, 8);
  b.collective(b.call(2, "MPI_Bcast", 21000, 21600), CollOp::Bcast, 0, 0, 0, 8);
  Trace t = b.finish();
  ASSERT_EQ(violations(t), 2u);  // rank 2's barrier exit, rank 1's bcast exit
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_before, 2u);
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(violations(t), 0u);
  const TimeNs latency = ClockRepairOptions{}.latency_same_node;
  for (int r = 0; r < 3; ++r)
    for (int e = 0; e < 3; ++e)
      EXPECT_GE(t.locations[r].call_leave[0], t.locations[e].call_enter[0] + latency);
  EXPECT_GE(t.locations[1].call_leave[1], t.locations[0].call_enter[1] + latency);
}

TEST(ClockRepair, UpcNoSyncExitsBeforeOtherEntriesAreLeftAlone) {
  Trace t = upc_broadcast_leaving_early(UpcSync::No, UpcSync::No);
  const Trace copy = t;
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_before, 0u);
  EXPECT_EQ(r.max_shift, 0);
  expect_same_times(t, copy);
}

TEST(ClockRepair, UpcAllSyncExitsFollowEveryEntry) {
  Trace t = upc_broadcast_leaving_early(UpcSync::All, UpcSync::All);
  ASSERT_EQ(violations(t), 1u);  // thread 1 left before thread 2 entered
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_before, 1u);
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(violations(t), 0u);
  EXPECT_GT(r.max_shift, 0);
  const TimeNs latency = ClockRepairOptions{}.latency_same_node;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_GE(t.locations[i].call_leave[0], t.locations[j].call_enter[0] + latency);
}

TEST(ClockRepair, NeighborhoodExitsFollowOnlyTheirInNeighbors) {
  // A chain 0 → 1 → 2 as a topology: rank 1 (clock 5 µs behind) leaves "before" its only
  // in-neighbor 0 entered. Rank 2 left long before rank 0 entered, which is no violation: it
  // does not receive from rank 0.
  TraceBuilder b(3);
  b.role("MPI_Neighbor_allgather", RegionRole::CollOther);
  const std::uint32_t chain = b.topology_comm({0, 1, 2}, {{}, {0}, {1}});
  const TimeNs enter[] = {20000, 9000, 8000}, leave[] = {20500, 12000, 9500};
  for (int r = 0; r < 3; ++r)
    b.collective(b.call(r, "MPI_Neighbor_allgather", enter[r], leave[r]), CollOp::Allgather, chain,
                 kNoWorldRank, 8, 8);
  Trace t = b.finish();
  ASSERT_EQ(violations(t), 1u);
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_after, 0u);
  const TimeNs latency = ClockRepairOptions{}.latency_same_node;
  EXPECT_GE(t.locations[1].call_leave[0], t.locations[0].call_enter[0] + latency);
  EXPECT_LT(t.locations[2].call_leave[0], t.locations[0].call_enter[0]);
}

TEST(ClockRepair, StopsAtThePassLimit) {
  Trace t = skewed_message();
  ClockRepairOptions none;
  none.max_passes = 0;
  const ClockRepairReport r = repair_clocks(t, match_trace(t), none);
  EXPECT_EQ(r.passes, 0u);
  EXPECT_EQ(r.violations_after, 1u);
  EXPECT_EQ(violations(t), 1u);
}

TEST(ClockRepair, ConvergesOnAChainOfSkewedMessagesWithinThePassLimit) {
  // A message relay 0 → 1 → 2 → 3 where each rank's clock is further behind: each repair
  // moves the next send, so later receives depend on earlier corrections.
  TraceBuilder b(4);
  for (int r = 0; r < 4; ++r) {
    const TimeNs start = 1000 * r - 3000 * r;  // 3 µs skew per rank, 1 µs per hop
    if (r > 0) b.recv(b.call(r, "MPI_Recv", start - 500, start), r - 1, 0, 8);
    if (r < 3) b.send(b.call(r, "MPI_Send", start + 10, start + 60), r + 1, 0, 8);
  }
  Trace t = b.finish();
  ASSERT_EQ(violations(t), 3u);
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_before, 3u);
  EXPECT_EQ(r.violations_after, 0u);
  // The first pass starts from the times as read, later ones from a copy of the last pass's.
  EXPECT_GE(r.passes, 2u);
  EXPECT_LE(r.passes, ClockRepairOptions{}.max_passes);
  EXPECT_EQ(violations(t), 0u);
  for (const Location& l : t.locations)
    for (std::size_t c = 0; c < l.calls(); ++c) {
      EXPECT_LE(l.call_enter[c], l.call_leave[c]);
      if (c > 0) {
        EXPECT_LE(l.call_leave[c - 1], l.call_enter[c]);
      }
    }
}

// The skewed message of skewed_message(), with rank 1's clock `skew` ns behind.
Trace message_behind_by(TimeNs skew) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 1000, 1100), 1, 0, 8);
  b.call(1, "MPI_Comm_rank", 100 - skew, 120 - skew);
  b.recv(b.call(1, "MPI_Recv", 500 - skew, 1200 - skew), 0, 0, 8);
  b.call(1, "MPI_Barrier", 1300 - skew, 1350 - skew);
  return b.finish();
}

TEST(ClockRepair, MovesEventsFurtherThanNarrowShiftsHold) {
  // The receive moves by about the skew: more than 65,535 ns, then more than 2^32 ns.
  for (const TimeNs skew : {TimeNs{100'000}, TimeNs{5'000'000'000}}) {
    Trace t = message_behind_by(skew);
    const ClockRepairReport r = repair_clocks(t, match_trace(t));
    EXPECT_EQ(r.violations_after, 0u) << skew;
    EXPECT_GE(r.max_shift, skew - 100) << skew;  // the receive's: from 1200 − skew to 1100
    // The forward pass puts the receive exactly at its bound, which a truncated shift misses.
    EXPECT_EQ(t.locations[1].op_time(0),
              t.locations[0].op_time(0) + ClockRepairOptions{}.latency_same_node)
        << skew;
    EXPECT_EQ(t.locations[1].call_leave[1], t.locations[1].op_time(0)) << skew;
    EXPECT_LT(t.locations[1].call_leave[1], t.locations[1].call_enter[2]) << skew;
  }
}

TEST(ClockRepair, AWaitCompletingSeveralCollectivesLeavesAfterTheLatestOfTheirBounds) {
  // Rank 1 (clock behind) starts a nonblocking barrier with rank 0 and one with rank 2 and
  // completes both in one MPI_Waitall, twice: first rank 0 enters last, then rank 2. Whatever
  // order the two bounds on the one Leave are taken in, the later entry's bound comes first in
  // one round and last in the other. The rounds are 10 ms apart, so that the second round's
  // jump, amortized backwards at 1 %, does not reach the first.
  TraceBuilder b(3);
  const std::uint32_t with0 = b.comm({0, 1}), with2 = b.comm({1, 2});
  std::uint64_t request = 1;
  const auto barrier = [&](int rank, std::uint32_t comm, TimeNs enter) {
    const std::uint64_t id = request++;
    b.nbc_request(b.call(rank, "MPI_Ibarrier", enter, enter + 50), id);
    b.nbc_complete(b.call(rank, "MPI_Wait", enter + 100, enter + 600), CollOp::Barrier, id, comm);
  };
  const auto both = [&](TimeNs start) {
    const std::uint64_t first = request++, second = request++;
    b.nbc_request(b.call(1, "MPI_Ibarrier", start, start + 50), first);
    b.nbc_request(b.call(1, "MPI_Ibarrier", start + 100, start + 150), second);
    const CallRef wait = b.call(1, "MPI_Waitall", start + 200, start + 500);
    b.nbc_complete(wait, CollOp::Barrier, first, with0);
    b.nbc_complete(wait, CollOp::Barrier, second, with2);
  };
  barrier(0, with0, 10'000);
  barrier(2, with2, 5'000);
  both(1'000);
  barrier(0, with0, 10'030'000);
  barrier(2, with2, 10'040'000);
  both(10'021'000);
  Trace t = b.finish();
  ASSERT_EQ(violations(t), 4u);  // rank 1 leaves both waits before ranks 0 and 2 entered
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(violations(t), 0u);
  const TimeNs latency = ClockRepairOptions{}.latency_same_node;
  const Location &r0 = t.locations[0], &r1 = t.locations[1], &r2 = t.locations[2];
  EXPECT_GE(r1.call_leave[2], r0.call_enter[0] + latency);  // the later entry: rank 0's
  EXPECT_GE(r1.call_leave[2], r2.call_enter[0] + latency);
  EXPECT_GE(r1.call_leave[5], r0.call_enter[2] + latency);
  EXPECT_GE(r1.call_leave[5], r2.call_enter[2] + latency);  // the later entry: rank 2's
}

TEST(ClockRepair, CollectivesCompletedOutOfOrderGetTheirOwnBounds) {
  // Rank 1 (clock 8 µs behind) starts two nonblocking allreduces and completes the second
  // first; ranks 0 and 2 complete them in order. Each wait must follow its own instance's
  // entries.
  TraceBuilder b(3);
  const TimeNs start[] = {10000, 2000, 10500};
  for (int r = 0; r < 3; ++r) {
    const TimeNs s = start[r];
    b.nbc_request(b.call(r, "MPI_Iallreduce", s, s + 50), 1);
    b.nbc_request(b.call(r, "MPI_Iallreduce", s + 1000, s + 1050), 2);
    const std::uint64_t done_first = r == 1 ? 2 : 1;
    b.nbc_complete(b.call(r, "MPI_Wait", s + 2000, s + 2500), CollOp::Allreduce, done_first, 0,
                   kNoWorldRank, 8, 8);
    b.nbc_complete(b.call(r, "MPI_Wait", s + 3000, s + 3500), CollOp::Allreduce, 3 - done_first, 0,
                   kNoWorldRank, 8, 8);
  }
  Trace t = b.finish();
  ASSERT_EQ(violations(t), 2u);  // rank 1 leaves both waits before rank 2 entered either
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(violations(t), 0u);
  const TimeNs latency = ClockRepairOptions{}.latency_same_node;
  const Location& r1 = t.locations[1];
  for (int r = 0; r < 3; ++r) {
    EXPECT_GE(r1.call_leave[2], t.locations[r].call_enter[1] + latency) << r;  // the second
    EXPECT_GE(r1.call_leave[3], t.locations[r].call_enter[0] + latency) << r;  // the first
  }
}

TEST(ClockRepair, AmortizationNeverPushesACollectiveEntryPastTheExitsDependingOnIt) {
  // Rank 1 starts a nonblocking barrier with rank 2, then one with rank 0, completes both, and
  // then receives a message that rank 0 sends 48 µs later by rank 1's clock. The receive's jump
  // is amortized over rank 1's earlier events, but each barrier entry stays early enough for
  // its partner's exit: no other rank has to move.
  TraceBuilder b(3);
  const std::uint32_t with0 = b.comm({0, 1}), with2 = b.comm({1, 2});
  b.nbc_request(b.call(0, "MPI_Ibarrier", 1000, 1050), 1);
  b.nbc_complete(b.call(0, "MPI_Wait", 1100, 1600), CollOp::Barrier, 1, with0);
  b.send(b.call(0, "MPI_Send", 50'000, 50'100), 1, 0, 8);
  b.nbc_request(b.call(2, "MPI_Ibarrier", 1000, 1050), 1);
  b.nbc_complete(b.call(2, "MPI_Wait", 1100, 1600), CollOp::Barrier, 1, with2);
  b.nbc_request(b.call(1, "MPI_Ibarrier", 900, 950), 1);
  b.nbc_request(b.call(1, "MPI_Ibarrier", 1000, 1050), 2);
  const CallRef wait = b.call(1, "MPI_Waitall", 1100, 1700);
  b.nbc_complete(wait, CollOp::Barrier, 1, with2);
  b.nbc_complete(wait, CollOp::Barrier, 2, with0);
  b.recv(b.call(1, "MPI_Recv", 1800, 2000), 0, 0, 8);
  Trace t = b.finish();
  const Trace original = t;
  ASSERT_EQ(violations(t), 1u);
  const ClockRepairReport r = repair_clocks(t, match_trace(t));
  EXPECT_EQ(r.passes, 1u);
  EXPECT_EQ(r.violations_after, 0u);
  for (const int rank : {0, 2}) {
    EXPECT_EQ(t.locations[rank].call_enter, original.locations[rank].call_enter) << rank;
    EXPECT_EQ(t.locations[rank].call_leave, original.locations[rank].call_leave) << rank;
  }
  const TimeNs latency = ClockRepairOptions{}.latency_same_node;
  const Location& r1 = t.locations[1];
  EXPECT_LE(r1.call_enter[0] + latency, t.locations[2].call_leave[1]);
  EXPECT_LE(r1.call_enter[1] + latency, t.locations[0].call_leave[1]);
  EXPECT_GT(r1.call_enter[1], original.locations[1].call_enter[1]);  // amortized, up to its cap
}

// Repairs copies of `trace` on one thread and on `threads`, checks that both give the same
// times and figures, and returns the one thread's.
ClockRepairReport repair_on_one_and_on(unsigned threads, const Trace& trace) {
  Trace serial = trace, threaded = trace;
  const ClockRepairReport one = repair_clocks(serial, match_trace(serial), {}, 1);
  const ClockRepairReport more = repair_clocks(threaded, match_trace(threaded), {}, threads);
  EXPECT_EQ(more.passes, one.passes);
  EXPECT_EQ(more.violations_before, one.violations_before);
  EXPECT_EQ(more.violations_after, one.violations_after);
  EXPECT_EQ(more.max_shift, one.max_shift);
  expect_same_times(threaded, serial);
  return one;
}

TEST(ClockRepair, GivesTheSameTimesOnAnyNumberOfThreads) {
  // Eight ranks in a ring, each clock 2 µs further behind: every receive reads before its send.
  TraceBuilder b(8);
  for (int r = 0; r < 8; ++r) {
    const TimeNs start = 10000 - 2000 * r;
    b.send(b.call(r, "MPI_Send", start, start + 50), (r + 1) % 8, 0, 8);
    b.recv(b.call(r, "MPI_Recv", start + 100, start + 400), (r + 7) % 8, 0, 8);
    b.call(r, "MPI_Barrier", start + 500, start + 600);
  }
  const Trace trace = b.finish();
  ASSERT_GT(violations(trace), 0u);
  EXPECT_GT(repair_on_one_and_on(4, trace).passes, 0u);
}

TEST(ClockRepair, CollectiveBoundsGiveTheSameTimesOnAnyNumberOfThreads) {
  // Rank 3's clock is 2 µs behind: it leaves each of 9000 barriers and allreduces before the
  // others enter them. The instances' bounds are found in ranges side by side.
  TraceBuilder b(4);
  for (int r = 0; r < 4; ++r) {
    for (int i = 0; i < 9000; ++i) {
      const TimeNs start = 10'000 * i + (r == 3 ? 8000 : 10'000);
      auto c = b.call(r, i % 2 ? "MPI_Allreduce" : "MPI_Barrier", start, start + 500);
      b.collective(c, i % 2 ? CollOp::Allreduce : CollOp::Barrier, 0, kNoWorldRank, i % 2 ? 8 : 0,
                   i % 2 ? 8 : 0);
    }
  }
  const Trace trace = b.finish();
  ASSERT_EQ(violations(trace), 9000u);
  const ClockRepairReport one = repair_on_one_and_on(3, trace);
  EXPECT_EQ(one.violations_before, 9000u);
  EXPECT_EQ(one.violations_after, 0u);
  EXPECT_GE(one.max_shift, 1500 + 100);  // rank 3's Leaves after the others' Enters + latency
}

}  // namespace
}  // namespace collwrap
