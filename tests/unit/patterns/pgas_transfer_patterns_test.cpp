// The data-transfer and master-worker patterns of Akopyan and Andreev (ISP RAS) on hand-built
// streams: large_communication, unbalanced_communication, and slow_workers / overloaded_master
// over the master found from the traffic (one-sided transfers and messages alike).
#include <gtest/gtest.h>

#include "rule_test_support.h"
#include "traffic_totals.h"

namespace collwrap::testing {
namespace {

constexpr std::uint64_t kKiB = 1024;

TEST(LargeCommunication, PutsAndGetsFromTheLimitUp) {
  TraceBuilder b(3);
  b.put(b.call(0, "shmem_putmem", 100, 5100, "a.c", 10), 1, 1024 * kKiB);
  b.put(b.call(0, "shmem_putmem", 6000, 6900, "a.c", 11), 1, 64 * kKiB - 1);  // just below
  b.get(b.call(1, "shmem_getmem", 200, 1200, "a.c", 12), 2, 64 * kKiB);
  b.put(b.call(2, "shmem_long_p", 0, 10, "a.c", 13), 0, 8);
  const auto found = find(kLargeCommunication, b.finish());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 5000);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].detail.transfers, 1u);
  EXPECT_EQ(found[0].detail.transfer_bytes, 1024 * kKiB);
  EXPECT_EQ(found[1].rank, 1);  // the get's origin, its target as peer
  EXPECT_EQ(found[1].idle, 1000);
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[1].detail.transfer_bytes, 64 * kKiB);
}

TEST(LargeCommunication, SmallTransfersAndMessagesAreNot) {
  TraceBuilder b(2);
  for (int i = 0; i < 10; ++i) b.put(b.call(0, "shmem_putmem", 100 * i, 100 * i + 90), 1, 4096);
  b.send(b.call(0, "MPI_Send", 2000, 9000), 1, 0, 1 << 20);  // late_receiver's, not this rule's
  b.recv(b.call(1, "MPI_Recv", 8000, 9000), 0, 0, 1 << 20);
  const Trace t = b.finish();
  EXPECT_TRUE(find(kLargeCommunication, t).empty());
  RuleOptions options;
  options.large_transfer_bytes = 4096;  // the limit is an option
  EXPECT_EQ(find(kLargeCommunication, t, options).size(), 10u);
}

// A ring of 100-byte puts with one pair carrying `heavy` bytes in two puts of 400 ns each.
Trace ring_with_heavy_pair(std::uint64_t heavy) {
  TraceBuilder b(4);
  for (int pe = 0; pe < 3; ++pe) b.put(b.call(pe, "shmem_putmem", 0, 100, "a.c", 5), pe + 1, 100);
  b.put(b.call(3, "shmem_putmem", 0, 400, "a.c", 9), 0, heavy / 2);
  b.put(b.call(3, "shmem_putmem", 500, 900, "a.c", 9), 0, heavy - heavy / 2);
  return b.finish();
}

TEST(UnbalancedCommunication, PairFarAboveTheMean) {
  const auto found = find(kUnbalancedCommunication, ring_with_heavy_pair(1000));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 3);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  // Mean (3 × 100 + 1000) / 4 = 325 bytes; 800 ns × (1000 − 325) / 1000.
  EXPECT_EQ(found[0].idle, 540);
  EXPECT_EQ(found[0].detail.transfers, 2u);
  EXPECT_EQ(found[0].detail.transfer_bytes, 1000u);
  EXPECT_EQ(found[0].detail.mean_pair_bytes, 325u);
}

TEST(UnbalancedCommunication, BalancedOrMildlyUnevenPairsAreNot) {
  EXPECT_TRUE(find(kUnbalancedCommunication, ring_with_heavy_pair(200)).empty());
  // 500 bytes: mean 200, 2.5 × the mean; with a factor of 3 it is not unbalanced.
  EXPECT_EQ(find(kUnbalancedCommunication, ring_with_heavy_pair(500)).size(), 1u);
  RuleOptions options;
  options.unbalanced_factor = 3;
  EXPECT_TRUE(find(kUnbalancedCommunication, ring_with_heavy_pair(500), options).empty());
}

TEST(UnbalancedCommunication, MessagesAndGetsCountInTheirDataDirection) {
  TraceBuilder b(3);
  b.send(b.call(0, "MPI_Send", 0, 10, "a.c", 3), 1, 0, 10);
  b.recv(b.call(1, "MPI_Recv", 0, 20, "a.c", 4), 0, 0, 10);
  b.send(b.call(1, "MPI_Send", 30, 40, "a.c", 5), 2, 0, 10);
  b.recv(b.call(2, "MPI_Recv", 0, 50, "a.c", 6), 1, 0, 10);
  b.get(b.call(0, "shmem_getmem", 100, 300, "a.c", 7), 2, 100);  // data 2 → 0, issued by 0
  const auto found = find(kUnbalancedCommunication, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[0].detail.mean_pair_bytes, 40u);
  EXPECT_EQ(found[0].idle, 120);  // 200 ns × (100 − 40) / 100
}

// A master (PE 0) puts work to workers 1..3 at 10..35 ns; each worker puts its result back at
// result[w] (a 2 ns put) and the master waits for the workers' flags in order 1, 2, 3, each wait
// ending 3 ns after its worker's put began.
Trace one_round(const TimeNs (&result)[4], TimeNs master_wait_from = 100) {
  TraceBuilder b(4);
  for (int w = 1; w <= 3; ++w) {
    b.put(b.call(0, "shmem_putmem", 10 * w, 10 * w + 5, "m.c", 20), w, 64);
    b.put(b.call(w, "shmem_putmem", result[w], result[w] + 2, "m.c", 30), 0, 64);
  }
  TimeNs t = master_wait_from;
  for (int w = 1; w <= 3; ++w) {
    const TimeNs end = std::max(t, result[w]) + 3;
    b.wait_change(b.call(0, "shmem_long_wait_until", t, end, "m.c", 25));
    t = end + 1;
  }
  return b.finish();
}

TEST(MasterOf, TheCenterOfAStarOfAtLeastThreeProcesses) {
  const Trace star = one_round({0, 1000, 1000, 1000});
  EXPECT_EQ(master_of(pair_traffic(star, match_trace(star)), star.world_size), 0);
  TraceBuilder b(3);
  b.put(b.call(0, "shmem_putmem", 0, 1), 1, 8);
  b.put(b.call(2, "shmem_putmem", 0, 1), 0, 8);
  b.put(b.call(1, "shmem_putmem", 0, 1), 2, 8);  // workers 1 and 2 exchange data: no star
  const Trace ring = b.finish();
  EXPECT_EQ(master_of(pair_traffic(ring, match_trace(ring)), ring.world_size), kNoWorldRank);
  TraceBuilder two(2);
  two.put(two.call(0, "shmem_putmem", 0, 1), 1, 8);
  const Trace pair = two.finish();
  EXPECT_EQ(master_of(pair_traffic(pair, match_trace(pair)), pair.world_size), kNoWorldRank);
}

TEST(SlowWorkers, MasterWaitsForOneWorkerAfterTheOthersDelivered) {
  const auto found = find(kSlowWorkers, one_round({0, 5000, 1000, 1010}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].idle, 5000 - 1002);  // after worker 2's put completed
}

TEST(SlowWorkers, TheLastWorkerWaitedForIsSlowToo) {
  // Worker 1 delivers first (no finding), worker 2 100 ns after it, worker 3 6 µs after it.
  const auto found = find(kSlowWorkers, one_round({0, 1000, 1100, 7000}));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[0].idle, 1100 - 1004);  // from the wait's Enter: worker 1 delivered before it
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{3});
  EXPECT_EQ(found[1].idle, 7000 - 1104);
}

TEST(SlowWorkers, BalancedWorkersAreNot) {
  // The master waits for worker 1 while all compute; the others' results complete after its.
  EXPECT_TRUE(find(kSlowWorkers, one_round({0, 1000, 1000, 1000})).empty());
}

TEST(OverloadedMaster, WorkersWaitWhileTheMasterIsBusy) {
  // The master computes until 5000 ns, then hands out work; workers wait from 0.
  TraceBuilder b(3);
  for (int w = 1; w <= 2; ++w) {
    b.put(b.call(0, "shmem_putmem", 5000 + 100 * w, 5010 + 100 * w, "m.c", 20), w, 64);
    b.wait_change(b.call(w, "shmem_long_wait_until", 0, 5020 + 100 * w, "m.c", 40));
  }
  const auto found = find(kOverloadedMaster, b.finish());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[0].idle, 5100);
  EXPECT_EQ(found[1].idle, 5200);
}

TEST(OverloadedMaster, NotWhileTheMasterWaitsForASlowWorker) {
  // The master waits 100..5000 for worker 1, then hands worker 2 its next work at 5010; worker 2
  // waited from 1000: only the 10 ns after the master's wait are the master's own.
  TraceBuilder b(3);
  b.put(b.call(1, "shmem_putmem", 5000, 5002, "m.c", 30), 0, 64);
  b.wait_change(b.call(0, "shmem_long_wait_until", 100, 5003, "m.c", 25));
  b.put(b.call(0, "shmem_putmem", 5010, 5012, "m.c", 20), 2, 64);
  b.wait_change(b.call(2, "shmem_long_wait_until", 1000, 5020, "m.c", 40));
  const auto found = find(kOverloadedMaster, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 2);
  EXPECT_EQ(found[0].idle, 10);
}

TEST(OverloadedMaster, NoMasterNoFinding) {
  TraceBuilder b(3);
  b.put(b.call(0, "shmem_putmem", 5000, 5010), 1, 64);
  b.wait_change(b.call(1, "shmem_long_wait_until", 0, 5020));
  b.put(b.call(1, "shmem_putmem", 5030, 5040), 2, 64);  // a ring: no master
  b.put(b.call(2, "shmem_putmem", 5000, 5010), 0, 64);
  EXPECT_TRUE(find(kOverloadedMaster, b.finish()).empty());
}

}  // namespace
}  // namespace collwrap::testing
