#include "record/clock_sync_math.h"

#include <gtest/gtest.h>

#include <bit>
#include <vector>

namespace collwrap::tracer {
namespace {

// A synthetic machine: rank r's clock reads t + skew[r] when rank 0's reads t, so rank r's true
// offset to rank 0 is −skew[r] and its offset to rank q is skew[q] − skew[r].
const std::vector<std::int64_t> kSkew{0, 250, -4000, 17, 900000, -3, 12, 5000, -77};

OffsetEstimate link(int rank, int parent, Ticks rtt) {
  return {Ticks(1000000 + kSkew[std::size_t(rank)]),
          kSkew[std::size_t(parent)] - kSkew[std::size_t(rank)], rtt};
}

TEST(ChainOffsets, AddsOffsetsAndRoundTripsKeepsTheChildsTime) {
  OffsetEstimate total = chain_offsets({500, 7, 40}, {900, -3, 60});
  EXPECT_EQ(total.peer_time, 500u);
  EXPECT_EQ(total.offset, 4);
  // The uncertainty is half the round trip: half of 40 plus half of 60.
  EXPECT_EQ(total.rtt, 100u);
}

TEST(RingPrefixSums, RecoverEveryRanksOffsetToRankZero) {
  std::vector<OffsetEstimate> links{{1000000, 123, 999}};  // rank 0: offset and rtt are ignored
  for (int r = 1; r < int(kSkew.size()); ++r) links.push_back(link(r, r - 1, Ticks(10 * r)));
  std::vector<OffsetEstimate> totals = ring_prefix_sums(links);
  ASSERT_EQ(totals.size(), kSkew.size());
  EXPECT_EQ(totals[0].offset, 0);
  EXPECT_EQ(totals[0].rtt, 0u);
  Ticks rtt_sum = 0;
  for (std::size_t r = 1; r < kSkew.size(); ++r) {
    rtt_sum += Ticks(10 * r);
    EXPECT_EQ(totals[r].offset, -kSkew[r]) << "rank " << r;
    EXPECT_EQ(totals[r].rtt, rtt_sum) << "rank " << r;  // half-RTTs accumulate along the ring
    EXPECT_EQ(totals[r].peer_time, links[r].peer_time);
  }
}

TEST(BinomialTree, ParentsRoundsAndChildren) {
  EXPECT_EQ(tree_parent(1), 0);
  EXPECT_EQ(tree_parent(6), 4);
  EXPECT_EQ(tree_parent(7), 6);
  EXPECT_EQ(tree_parent(8), 0);
  EXPECT_EQ(tree_round(1), 0);
  EXPECT_EQ(tree_round(6), 1);
  EXPECT_EQ(tree_round(8), 3);
  EXPECT_EQ(tree_children(0, 8), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(tree_children(0, 9), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(tree_children(4, 8), (std::vector<int>{5, 6}));
  EXPECT_EQ(tree_children(4, 6), (std::vector<int>{5}));
  EXPECT_TRUE(tree_children(5, 8).empty());
  EXPECT_EQ(tree_rounds(1), 0);
  EXPECT_EQ(tree_rounds(2), 1);
  EXPECT_EQ(tree_rounds(8), 3);
  EXPECT_EQ(tree_rounds(9), 4);
}

TEST(BinomialTree, EveryRankIsMeasuredOnceAndRoundsPairDisjointly) {
  for (int size = 1; size <= 40; ++size) {
    std::vector<int> measured(std::size_t(size), 0);
    for (int parent = 0; parent < size; ++parent) {
      for (int child : tree_children(parent, size)) {
        EXPECT_EQ(tree_parent(child), parent);
        ++measured[std::size_t(child)];
      }
    }
    for (int r = 1; r < size; ++r) {
      EXPECT_EQ(measured[std::size_t(r)], 1) << "size " << size << " rank " << r;
      EXPECT_LT(tree_round(r), tree_rounds(size));
      // A rank's own children are measured in earlier rounds than the rank itself.
      for (int child : tree_children(r, size)) EXPECT_LT(tree_round(child), tree_round(r));
    }
  }
}

TEST(BinomialTree, CombinationDownTheTreeRecoversOffsetsAndAccumulatesUncertainty) {
  int size = int(kSkew.size());
  std::vector<OffsetEstimate> totals(kSkew.size());
  totals[0] = {1000000, 0, 0};
  // Parents have smaller ranks, so rank order is a valid top-down order.
  for (int r = 1; r < size; ++r) {
    totals[std::size_t(r)] =
        chain_offsets(link(r, tree_parent(r), 8), totals[std::size_t(tree_parent(r))]);
  }
  for (int r = 1; r < size; ++r) {
    EXPECT_EQ(totals[std::size_t(r)].offset, -kSkew[std::size_t(r)]) << "rank " << r;
    // One link per set bit of the rank: rank 7 is three hops from rank 0.
    EXPECT_EQ(totals[std::size_t(r)].rtt, Ticks(8 * std::popcount(unsigned(r)))) << "rank " << r;
  }
}

TEST(ResolveClockSync, AutoIsLinearForFewRanksAndTreeAbove) {
  EXPECT_EQ(resolve_clocksync(ClockSyncKind::Auto, 1), ClockSyncKind::Linear);
  EXPECT_EQ(resolve_clocksync(ClockSyncKind::Auto, kLinearMaxRanks), ClockSyncKind::Linear);
  EXPECT_EQ(resolve_clocksync(ClockSyncKind::Auto, kLinearMaxRanks + 1), ClockSyncKind::Tree);
  EXPECT_EQ(resolve_clocksync(ClockSyncKind::Ring, 1000), ClockSyncKind::Ring);
  EXPECT_EQ(resolve_clocksync(ClockSyncKind::Off, 2), ClockSyncKind::Off);
}

}  // namespace
}  // namespace collwrap::tracer
