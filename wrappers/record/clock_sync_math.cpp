#include "record/clock_sync_math.h"

#include <bit>

namespace collwrap::tracer {

OffsetEstimate chain_offsets(const OffsetEstimate& link, const OffsetEstimate& parent) {
  return {link.peer_time, link.offset + parent.offset, link.rtt + parent.rtt};
}

std::vector<OffsetEstimate> ring_prefix_sums(std::span<const OffsetEstimate> links) {
  std::vector<OffsetEstimate> totals;
  totals.reserve(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    totals.push_back(i == 0 ? OffsetEstimate{links[0].peer_time, 0, 0}
                            : chain_offsets(links[i], totals[i - 1]));
  }
  return totals;
}

int tree_parent(int rank) {
  return rank & (rank - 1);
}

int tree_round(int rank) {
  return std::countr_zero(unsigned(rank));
}

std::vector<int> tree_children(int rank, int size) {
  std::vector<int> children;
  // Rank 0 has a child in every round; another rank only in rounds below its own.
  int limit = rank == 0 ? tree_rounds(size) : tree_round(rank);
  for (int k = 0; k < limit; ++k) {
    if (rank + (1 << k) < size) children.push_back(rank + (1 << k));
  }
  return children;
}

int tree_rounds(int size) {
  return size <= 1 ? 0 : std::bit_width(unsigned(size - 1));
}

ClockSyncKind resolve_clocksync(ClockSyncKind requested, int size) {
  if (requested != ClockSyncKind::Auto) return requested;
  return size <= kLinearMaxRanks ? ClockSyncKind::Linear : ClockSyncKind::Tree;
}

}  // namespace collwrap::tracer
