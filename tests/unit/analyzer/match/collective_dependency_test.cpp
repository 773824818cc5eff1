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
  EXPECT_EQ(clock_dependency_family(CollFamily::Barrier, false, 0), CollFamily::Barrier);
  EXPECT_EQ(clock_dependency_family(CollFamily::NxN, false, 0), CollFamily::Other);
  EXPECT_EQ(clock_dependency_family(CollFamily::OneToN, false, 0), CollFamily::Other);
  EXPECT_EQ(clock_dependency_family(CollFamily::OneToN, true, 0), CollFamily::OneToN);
}

// The UPC sync modes, entry × exit, for a broadcast: ALLSYNC on either side makes it a
// barrier, MYSYNC on both keeps the family's data dependencies, anything else orders nothing.
TEST(CollectiveDependency, UpcSyncModesDecideWhatAnExitFollows) {
  const auto family = [](UpcSync entry, UpcSync exit) {
    return clock_dependency_family(CollFamily::OneToN, true, upc_sync_flags(entry, exit));
  };
  for (const UpcSync other : {UpcSync::No, UpcSync::My, UpcSync::All}) {
    EXPECT_EQ(family(UpcSync::All, other), CollFamily::Barrier);
    EXPECT_EQ(family(other, UpcSync::All), CollFamily::Barrier);
  }
  EXPECT_EQ(family(UpcSync::My, UpcSync::My), CollFamily::OneToN);
  EXPECT_EQ(family(UpcSync::No, UpcSync::No), CollFamily::Other);
  EXPECT_EQ(family(UpcSync::No, UpcSync::My), CollFamily::Other);
  EXPECT_EQ(family(UpcSync::My, UpcSync::No), CollFamily::Other);
  // A UPC collective moving no data still synchronizes when its modes say so.
  EXPECT_EQ(
      clock_dependency_family(CollFamily::NxN, false, upc_sync_flags(UpcSync::All, UpcSync::No)),
      CollFamily::Barrier);
}

}  // namespace
}  // namespace collwrap
