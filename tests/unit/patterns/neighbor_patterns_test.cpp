// wait_at_neighbor: neighborhood collectives wait only for in-neighbors, and no all-to-all
// pattern applies to them.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

struct Times {
  TimeNs enter, leave;
};

// The ring of the README's example: rank r receives from r−1 and r+1.
NeighborLists ring(std::uint32_t size) {
  NeighborLists in(size);
  for (std::uint32_t r = 0; r < size; ++r) in[r] = {(r + size - 1) % size, (r + 1) % size};
  return in;
}

// One MPI_Neighbor_allgather on a topology communicator over all ranks.
Trace neighbor_allgather(const NeighborLists& in, const std::vector<Times>& times) {
  TraceBuilder b(static_cast<int>(times.size()));
  b.role("MPI_Neighbor_allgather", RegionRole::CollOther);
  std::vector<std::int32_t> world;
  for (int r = 0; r < static_cast<int>(times.size()); ++r) world.push_back(r);
  const std::uint32_t comm = b.topology_comm(world, in);
  for (std::size_t r = 0; r < times.size(); ++r)
    b.collective(b.call(static_cast<int>(r), "MPI_Neighbor_allgather", times[r].enter,
                        times[r].leave, "ring.c", 40),
                 CollOp::Allgather, comm, kNoWorldRank, 4, 8);
  return b.finish();
}

TEST(WaitAtNeighbor, OnlyTheLateRanksNeighborsWaitForIt) {
  // Rank 0 enters at 1000; everyone else at 0 and leaves once its own neighbors are in.
  const Trace t =
      neighbor_allgather(ring(6), {{1000, 1010}, {0, 1010}, {0, 20}, {0, 20}, {0, 20}, {0, 1010}});
  const auto found = find(kWaitAtNeighbor, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 1000);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].rank, 5);
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{0});
  EXPECT_TRUE(find(kWaitAtNxN, t).empty());
  EXPECT_TRUE(find(kNxNCompletion, t).empty());
}

TEST(WaitAtNeighbor, IdleEndsAtTheLastInNeighborOrTheExit) {
  // Rank 1's in-neighbors 0 and 2 enter at 300 and 700: it waits 700 − 100, peers latest first.
  // Rank 3 (in-neighbors 2 and 0) left at 650, before rank 2 entered (a clock error): its idle
  // time ends at its exit.
  const Trace t = neighbor_allgather(ring(4), {{300, 710}, {100, 710}, {700, 710}, {0, 650}});
  const auto found = find(kWaitAtNeighbor, t);
  const auto rank1 = on_rank(found, 1);
  ASSERT_EQ(rank1.size(), 1u);
  EXPECT_EQ(rank1[0].idle, 600);
  EXPECT_EQ(rank1[0].peers, (std::vector<std::int32_t>{2, 0}));
  const auto rank3 = on_rank(found, 3);
  ASSERT_EQ(rank3.size(), 1u);
  EXPECT_EQ(rank3[0].idle, 650);
  EXPECT_EQ(rank3[0].peers, (std::vector<std::int32_t>{2, 0}));
}

TEST(WaitAtNeighbor, DirectedGraphWaitsOnlyForSources) {
  // 0 → 1 → 2: rank 2 receives only from 1 and does not wait for the late rank 0.
  const Trace t = neighbor_allgather({{}, {0}, {1}}, {{900, 910}, {0, 910}, {0, 10}});
  const auto found = find(kWaitAtNeighbor, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 900);
}

TEST(WaitAtNeighbor, NonblockingFormAtItsWait) {
  TraceBuilder b(2);
  b.role("MPI_Ineighbor_alltoall", RegionRole::CollOther);
  const std::uint32_t comm = b.topology_comm({0, 1}, {{1}, {0}});
  b.nbc_request(b.call(0, "MPI_Ineighbor_alltoall", 100, 110, "halo.c", 3), 1);
  b.nbc_complete(b.call(0, "MPI_Wait", 200, 900, "halo.c", 4), CollOp::Alltoall, 1, comm);
  b.nbc_request(b.call(1, "MPI_Ineighbor_alltoall", 800, 810), 1);
  b.nbc_complete(b.call(1, "MPI_Wait", 820, 900), CollOp::Alltoall, 1, comm);
  const Trace t = b.finish();
  const auto found = find(kWaitAtNeighbor, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].call, 1u);
  EXPECT_EQ(found[0].idle, 600);
  EXPECT_EQ(found[0].detail.related_call, 0u);
  EXPECT_TRUE(find(kWaitAtNxN, t).empty());
}

TEST(WaitAtNeighbor, AllgatherOutsideATopologyStaysAllToAll) {
  // The same operation in a region of role COLL_ALL2ALL (MPI_Allgather) is an N×N one.
  TraceBuilder b(2);
  b.role("MPI_Allgather", RegionRole::CollAllToAll);
  b.collective(b.call(0, "MPI_Allgather", 0, 900), CollOp::Allgather, 0, kNoWorldRank, 4, 8);
  b.collective(b.call(1, "MPI_Allgather", 800, 900), CollOp::Allgather, 0, kNoWorldRank, 4, 8);
  const Trace t = b.finish();
  EXPECT_TRUE(find(kWaitAtNeighbor, t).empty());
  EXPECT_EQ(find(kWaitAtNxN, t).size(), 1u);
}

}  // namespace
}  // namespace collwrap::testing
