// Collective wait states: barrier, N×N, one-to-all, all-to-one and prefix.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

struct Times {
  TimeNs enter, leave;
};

// One blocking collective on `comm` with the given member times (index = world rank of the
// members listed in `ranks`).
Trace blocking(const std::string& function, CollOp op, const std::vector<Times>& times,
               int root = kNoWorldRank, int world = 0,
               const std::vector<std::int32_t>& ranks = {}) {
  TraceBuilder b(world > 0 ? world : static_cast<int>(times.size()));
  std::uint32_t comm = 0;
  std::vector<std::int32_t> members = ranks;
  if (members.empty())
    for (int r = 0; r < static_cast<int>(times.size()); ++r) members.push_back(r);
  else
    comm = b.comm(members, "sub");
  for (std::size_t i = 0; i < members.size(); ++i)
    b.collective(b.call(members[i], function, times[i].enter, times[i].leave), op, comm, root);
  return b.finish();
}

TEST(WaitAtBarrier, EveryoneWaitsForTheLast) {
  const Trace t = blocking("MPI_Barrier", CollOp::Barrier, {{0, 510}, {100, 510}, {500, 520}});
  const auto found = find(kWaitAtBarrier, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[1].rank, 1);
  EXPECT_EQ(found[1].idle, 400);
  EXPECT_TRUE(find(kWaitAtNxN, t).empty());  // a barrier is not an N×N collective
}

TEST(WaitAtBarrier, NamesTheThreadOfTheLastToJoin) {
  // Rank 2 calls the barrier from its thread 1: that is the thread the others waited for.
  TraceBuilder b(3, 2);
  b.collective(b.call(0, "MPI_Barrier", 0, 510), CollOp::Barrier);
  b.collective(b.call(1, "MPI_Barrier", 100, 510), CollOp::Barrier);
  b.collective(b.call(2, "MPI_Barrier", 500, 520, "test.c", 0, /*thread*/ 1), CollOp::Barrier);
  const auto found = find(kWaitAtBarrier, b.finish());
  ASSERT_EQ(found.size(), 2u);
  for (const Found& f : found) {
    EXPECT_EQ(f.peers, std::vector<std::int32_t>{2});
    EXPECT_EQ(f.peer_threads, std::vector<std::int32_t>{1});
  }
}

TEST(BarrierCompletion, TimeAfterTheFirstLeft) {
  const Trace t = blocking("MPI_Barrier", CollOp::Barrier, {{0, 510}, {0, 600}, {0, 700}});
  const auto found = find(kBarrierCompletion, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].idle, 90);
  EXPECT_EQ(found[1].idle, 190);
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{0});
}

TEST(WaitAtBarrier, IncompleteInstancesAreNotGuessed) {
  // Rank 2 never reached the barrier (its stream is truncated).
  const Trace t = blocking("MPI_Barrier", CollOp::Barrier, {{0, 510}, {100, 510}}, kNoWorldRank, 3);
  EXPECT_TRUE(find(kWaitAtBarrier, t).empty());
}

TEST(WaitAtBarrier, NonblockingBarrierAtItsWait) {
  TraceBuilder b(2);
  b.nbc_request(b.call(0, "MPI_Ibarrier", 100, 110, "app.c", 3), 1);
  b.nbc_complete(b.call(0, "MPI_Wait", 200, 900, "app.c", 4), CollOp::Barrier, 1);
  b.nbc_request(b.call(1, "MPI_Ibarrier", 800, 810), 1);
  b.nbc_complete(b.call(1, "MPI_Wait", 820, 900), CollOp::Barrier, 1);
  const auto found = find(kWaitAtBarrier, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].call, 1u);
  EXPECT_EQ(found[0].idle, 600);  // from Enter(Wait) until rank 1 posted
  EXPECT_EQ(found[0].detail.related_call, 0u);
}

TEST(WaitAtNxN, AllreduceAndAlltoall) {
  for (const auto& [function, op] :
       {std::pair{"MPI_Allreduce", CollOp::Allreduce},
        std::pair{"MPI_Alltoallv", CollOp::Alltoallv},
        std::pair{"MPI_Reduce_scatter_block", CollOp::ReduceScatterBlock}}) {
    const Trace t = blocking(function, op, {{0, 900}, {800, 900}});
    const auto found = find(kWaitAtNxN, t);
    ASSERT_EQ(found.size(), 1u) << function;
    EXPECT_EQ(found[0].idle, 800);
    EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  }
}

TEST(WaitAtNxN, SubCommunicator) {
  // Ranks 1 and 3 of 4 in their own communicator: the other ranks play no part.
  const Trace t =
      blocking("MPI_Allgather", CollOp::Allgather, {{0, 700}, {600, 700}}, kNoWorldRank, 4, {3, 1});
  const auto found = find(kWaitAtNxN, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 3);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
}

TEST(WaitAtNxN, NonblockingAllreduce) {
  TraceBuilder b(2);
  b.nbc_request(b.call(0, "MPI_Iallreduce", 0, 10), 1);
  b.nbc_complete(b.call(0, "MPI_Wait", 100, 600), CollOp::Allreduce, 1);
  b.nbc_request(b.call(1, "MPI_Iallreduce", 500, 510), 2);
  b.nbc_complete(b.call(1, "MPI_Wait", 520, 600), CollOp::Allreduce, 2);
  const auto found = find(kWaitAtNxN, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 400);
}

TEST(NxNCompletion, TimeAfterTheFirstLeft) {
  const Trace t = blocking("MPI_Allreduce", CollOp::Allreduce, {{0, 100}, {0, 400}});
  const auto found = find(kNxNCompletion, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 300);
}

TEST(LateBroadcast, NonRootsWaitForTheRoot) {
  const Trace t = blocking("MPI_Bcast", CollOp::Bcast, {{0, 900}, {600, 700}, {100, 900}}, 1);
  const auto found = find(kLateBroadcast, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 600);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[1].rank, 2);
  EXPECT_EQ(found[1].idle, 500);
}

TEST(LateBroadcast, EarlyRootIsNoWaitAndScatterCounts) {
  EXPECT_TRUE(
      find(kLateBroadcast, blocking("MPI_Bcast", CollOp::Bcast, {{0, 10}, {100, 110}}, 0)).empty());
  EXPECT_EQ(
      find(kLateBroadcast, blocking("MPI_Scatterv", CollOp::Scatterv, {{500, 510}, {0, 600}}, 0))
          .size(),
      1u);
}

TEST(EarlyReduce, RootWaitsForTheLastSender) {
  const Trace t = blocking("MPI_Reduce", CollOp::Reduce, {{0, 900}, {300, 310}, {700, 710}}, 0);
  const auto found = find(kEarlyReduce, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 700);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
}

TEST(EarlyReduce, OnlyTheRootCounts) {
  // Rank 1 waits for rank 2 as well (a tree algorithm), but that is not early_reduce.
  const Trace t = blocking("MPI_Gather", CollOp::Gather, {{800, 900}, {0, 800}, {700, 710}}, 0);
  EXPECT_TRUE(find(kEarlyReduce, t).empty());
}

TEST(EarlyScan, WaitsForTheLatestLowerRank) {
  const Trace t =
      blocking("MPI_Scan", CollOp::Scan, {{500, 900}, {0, 900}, {100, 900}, {600, 900}});
  const auto found = find(kEarlyScan, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].rank, 2);
  EXPECT_EQ(found[1].idle, 400);
}

TEST(EarlyScan, OrdersByRankInTheCommunicator) {
  // In the sub-communicator {3, 1}, world rank 3 is rank 0: rank 1 waits for it, not reverse.
  const Trace t =
      blocking("MPI_Exscan", CollOp::Exscan, {{500, 900}, {0, 900}}, kNoWorldRank, 4, {3, 1});
  const auto found = find(kEarlyScan, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{3});
}

}  // namespace
}  // namespace collwrap::testing
