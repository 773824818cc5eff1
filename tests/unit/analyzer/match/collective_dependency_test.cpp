#include "collective_dependency.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace collwrap {
namespace {

constexpr TimeNs kNobody = std::numeric_limits<TimeNs>::min();

// For each member, the entry it must follow (kNobody when none).
std::vector<TimeNs> dependencies(CollFamily family, const std::vector<TimeNs>& enter,
                                 std::uint32_t root, const NeighborLists* in_neighbors = nullptr) {
  std::vector<TimeNs> need(enter.size(), kNobody);
  for_each_collective_dependency(
      family, static_cast<std::uint32_t>(enter.size()), root, in_neighbors,
      [&](std::uint32_t i) { return enter[i]; }, [&](std::uint32_t i, TimeNs t) { need[i] = t; });
  return need;
}

const std::vector<TimeNs> kEnter = {30, 10, 50, 20};

TEST(CollectiveDependency, BarrierAndNxNWaitForTheLastEntry) {
  EXPECT_EQ(dependencies(CollFamily::Barrier, kEnter, 4), (std::vector<TimeNs>{50, 50, 50, 50}));
  EXPECT_EQ(dependencies(CollFamily::NxN, kEnter, 4), (std::vector<TimeNs>{50, 50, 50, 50}));
}

TEST(CollectiveDependency, OneToNNonRootsWaitForTheRoot) {
  EXPECT_EQ(dependencies(CollFamily::OneToN, kEnter, 1),
            (std::vector<TimeNs>{10, kNobody, 10, 10}));
  EXPECT_EQ(dependencies(CollFamily::OneToN, kEnter, 7),
            (std::vector<TimeNs>(4, kNobody)));  // root not among the members
}

TEST(CollectiveDependency, NToOneRootWaitsForEveryone) {
  EXPECT_EQ(dependencies(CollFamily::NToOne, kEnter, 3),
            (std::vector<TimeNs>{kNobody, kNobody, kNobody, 50}));
}

TEST(CollectiveDependency, PrefixWaitsForLowerRanks) {
  EXPECT_EQ(dependencies(CollFamily::Prefix, kEnter, 4), (std::vector<TimeNs>{30, 30, 50, 50}));
}

TEST(CollectiveDependency, NeighborsWaitForTheirLastInNeighbor) {
  // Rank 0 receives from 1 and 2, rank 1 from nobody, rank 2 from 3, rank 3 from 0.
  const NeighborLists in{{1, 2}, {}, {3}, {0}};
  EXPECT_EQ(dependencies(CollFamily::Neighbor, kEnter, 4, &in),
            (std::vector<TimeNs>{50, kNobody, 20, 30}));
  // Without the topology of every member there is no stated dependency.
  EXPECT_EQ(dependencies(CollFamily::Neighbor, kEnter, 4), (std::vector<TimeNs>(4, kNobody)));
  const NeighborLists partial{{1}};
  EXPECT_EQ(dependencies(CollFamily::Neighbor, kEnter, 4, &partial),
            (std::vector<TimeNs>(4, kNobody)));
}

TEST(CollectiveDependency, NeighborhoodCollectivesAreTheOnesInCollOtherRegions) {
  EXPECT_EQ(collective_family(CollOp::Allgather, RegionRole::CollOther), CollFamily::Neighbor);
  EXPECT_EQ(collective_family(CollOp::Alltoallw, RegionRole::CollOther), CollFamily::Neighbor);
  EXPECT_EQ(collective_family(CollOp::Allgather, RegionRole::CollAllToAll), CollFamily::NxN);
  EXPECT_EQ(collective_family(CollOp::Allgather, RegionRole::Unknown), CollFamily::NxN);
  EXPECT_EQ(collective_family(CollOp::Scan, RegionRole::CollOther), CollFamily::Prefix);
}

TEST(CollectiveDependency, OtherStatesNothing) {
  EXPECT_EQ(dependencies(CollFamily::Other, kEnter, 0), (std::vector<TimeNs>(4, kNobody)));
}

TEST(CollectiveDependency, OnlyBarriersSynchronizeWithoutData) {
  EXPECT_TRUE(collective_synchronizes(CollFamily::Barrier, false));
  EXPECT_FALSE(collective_synchronizes(CollFamily::NxN, false));
  EXPECT_FALSE(collective_synchronizes(CollFamily::OneToN, false));
  EXPECT_TRUE(collective_synchronizes(CollFamily::OneToN, true));
}

}  // namespace
}  // namespace collwrap
