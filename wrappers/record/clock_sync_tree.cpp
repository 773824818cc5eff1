// Binomial-tree synchronization (Netgauge / hierarchical style): in round k every rank whose
// lowest set bit is 2^k is measured against the rank 2^k below it, all pairs of a round at once,
// ⌈log2 P⌉ rounds. The offsets to rank 0 then flow down the tree: a rank receives its parent's
// total, adds its own link (chain_offsets) and passes its total on to its children.
#include "record/clock_pair_exchange.h"
#include "record/clock_sync.h"
#include "record/clock_sync_math.h"

namespace collwrap::tracer {
namespace {

class TreeClockSync final : public ClockSynchronizer {
 public:
  explicit TreeClockSync(std::uint32_t patience) : patience_(patience) {}
  const char* name() const override { return "tree"; }

  ClockSyncResult synchronize(ProcessGroup& group) override {
    const int rank = group.rank(), size = group.size();
    std::vector<int> children = tree_children(rank, size);
    OffsetEstimate link{now(), 0, 0};  // rank 0's: its own clock
    // Children in increasing rank order are in increasing round order.
    std::size_t next_child = 0;
    for (int round = 0; round < tree_rounds(size); ++round) {
      if (rank > 0 && tree_round(rank) == round) link = answer_reference(group, tree_parent(rank));
      if (next_child < children.size() && tree_round(children[next_child] - rank) == round) {
        measure_peer(group, children[next_child++], patience_);
      }
    }
    OffsetEstimate total = link;
    if (rank > 0) {
      // The parent sends its total after its measurement of this rank: messages between two
      // peers arrive in order, so this is the next one.
      std::array<std::int64_t, 3> parent{};
      group.receive_words(tree_parent(rank), parent);
      total = chain_offsets(link, unpack_estimate(parent));
    }
    for (int child : children) group.send_words(child, pack_estimate(total));
    // Rank 0 learns all totals only for reporting (COLLWRAP_VERBOSE, collwrap-timercheck).
    return {total, gather_estimates(group, total)};
  }

 private:
  std::uint32_t patience_;
};

}  // namespace

std::unique_ptr<ClockSynchronizer> make_tree_clock_sync(std::uint32_t patience) {
  return std::make_unique<TreeClockSync>(patience);
}

}  // namespace collwrap::tracer
