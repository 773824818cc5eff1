// Neighbors from the archive's topology definitions (topology.h).
#include "topology.h"

#include <gtest/gtest.h>

namespace collwrap {
namespace {

using Lists = NeighborLists;

TEST(CartesianNeighbors, GridWithoutWrapAround) {
  // 2 × 3, row-major like MPI_Cart_create: rank = 3·row + column.
  CartesianTopology t{{2, 3}, {false, false}, {}};
  for (std::uint32_t r = 0; r < 6; ++r) t.coords.push_back({r / 3, r % 3});
  const Lists n = cartesian_neighbors(t);
  // Per dimension the rank one step back, then the one forward; none past an edge.
  EXPECT_EQ(n[0], (std::vector<std::uint32_t>{3, 1}));
  EXPECT_EQ(n[4], (std::vector<std::uint32_t>{1, 3, 5}));
  EXPECT_EQ(n[5], (std::vector<std::uint32_t>{2, 4}));
}

TEST(CartesianNeighbors, PeriodicDimensionsWrapAround) {
  CartesianTopology t{{4}, {true}, {{0}, {1}, {2}, {3}}};
  const Lists n = cartesian_neighbors(t);
  EXPECT_EQ(n[0], (std::vector<std::uint32_t>{3, 1}));
  EXPECT_EQ(n[3], (std::vector<std::uint32_t>{2, 0}));
  // A periodic dimension of two: the other rank is both neighbors, as in MPI.
  const Lists two = cartesian_neighbors({{2}, {true}, {{0}, {1}}});
  EXPECT_EQ(two[0], (std::vector<std::uint32_t>{1, 1}));
}

TEST(CartesianNeighbors, RanksWithoutCoordinatesHaveNone) {
  // Rank 1's coordinate is missing, rank 2's lies outside the grid.
  const Lists n = cartesian_neighbors({{3}, {false}, {{0}, {}, {7}}});
  ASSERT_EQ(n.size(), 3u);
  EXPECT_TRUE(n[0].empty());
  EXPECT_TRUE(n[1].empty());
  EXPECT_TRUE(n[2].empty());
}

TEST(RanksWithin, WorldRanksBecomeRanksInTheCommunicator) {
  const Communicator comm{"sub", {5, 3, 1}, {}, {}};
  EXPECT_EQ(ranks_within(comm, {1, 5, 4}), (std::vector<std::uint32_t>{2, 0}));
}

}  // namespace
}  // namespace collwrap
