// Arithmetic of the multi-hop synchronization algorithms, free of MPI so it can be tested.
//
// ring and tree measure offsets between neighbours, not to rank 0, and chain them: if rank r's
// clock plus d equals its parent's clock, and the parent's plus D equals rank 0's, then r's
// offset to rank 0 is d + D. Each link's error is bounded by half its minimum round trip, and
// the links' errors can have the same sign (the same asymmetric path is crossed again), so the
// chained uncertainty is the sum of the links' half round trips, a bound rather than a
// root-sum-square estimate. An OffsetEstimate carries it as `rtt`, the sum of the links' RTTs.
#pragma once

#include <span>
#include <vector>

#include "record/clock_offset.h"
#include "record/tracer_config.h"

namespace collwrap::tracer {

// `link`: this rank's offset to its parent (peer_time is this rank's clock); `parent`: the
// parent's offset to rank 0. Returns this rank's offset to rank 0.
OffsetEstimate chain_offsets(const OffsetEstimate& link, const OffsetEstimate& parent);

// Ring: links[i] is rank i's offset to rank i−1 (links[0] is rank 0's own clock reading, offset
// 0). Returns every rank's offset to rank 0, the prefix sums along the ring.
std::vector<OffsetEstimate> ring_prefix_sums(std::span<const OffsetEstimate> links);

// Binomial tree rooted at rank 0: a rank's parent is the rank with its lowest set bit cleared,
// and it is measured in round log2(lowest set bit), so each round's pairs are disjoint and run
// concurrently: ⌈log2 size⌉ rounds in all.
int tree_parent(int rank);
int tree_round(int rank);  // the round in which `rank` (> 0) is measured by its parent
std::vector<int> tree_children(int rank, int size);
int tree_rounds(int size);

// COLLWRAP_CLOCKSYNC=auto: linear is exact per rank and cheap for a few ranks; above
// kLinearMaxRanks the tree's O(log P) rounds win.
constexpr int kLinearMaxRanks = 8;
ClockSyncKind resolve_clocksync(ClockSyncKind requested, int size);

}  // namespace collwrap::tracer
