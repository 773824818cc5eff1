// Binomial-tree synchronization (Netgauge / hierarchical style): in round k every rank whose
// lowest set bit is 2^k is measured against the rank 2^k below it, all pairs of a round at once,
// ⌈log2 P⌉ rounds. The offsets to rank 0 then flow down the tree: a rank receives its parent's
// total, adds its own link (chain_offsets) and passes its total on to its children.
#include "backend/clock_pair_exchange.h"
#include "backend/clock_sync.h"
#include "backend/clock_sync_math.h"

namespace collwrap::tracer {
namespace {

constexpr int kTreeTotalTag = 0x636d;

class TreeClockSync final : public ClockSynchronizer {
 public:
  explicit TreeClockSync(std::uint32_t patience) : patience_(patience) {}
  const char* name() const override { return "tree"; }

  ClockSyncResult synchronize(MPI_Comm comm) override {
    int rank = 0, size = 1;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    std::vector<int> children = tree_children(rank, size);
    OffsetEstimate link{now(), 0, 0};  // rank 0's: its own clock
    // Children in increasing rank order are in increasing round order.
    std::size_t next_child = 0;
    for (int round = 0; round < tree_rounds(size); ++round) {
      if (rank > 0 && tree_round(rank) == round) link = answer_reference(comm, tree_parent(rank));
      if (next_child < children.size() && tree_round(children[next_child] - rank) == round) {
        measure_peer(comm, children[next_child++], patience_);
      }
    }
    OffsetEstimate total = link;
    if (rank > 0) {
      std::int64_t parent[3];
      PMPI_Recv(parent, 3, MPI_INT64_T, tree_parent(rank), kTreeTotalTag, comm,
                MPI_STATUS_IGNORE);
      total = chain_offsets(link, {Ticks(parent[0]), parent[1], Ticks(parent[2])});
    }
    std::int64_t mine[3] = {std::int64_t(total.peer_time), total.offset, std::int64_t(total.rtt)};
    for (int child : children) PMPI_Send(mine, 3, MPI_INT64_T, child, kTreeTotalTag, comm);
    // Rank 0 learns all totals only for reporting (COLLWRAP_VERBOSE, collwrap-timercheck).
    return {total, gather_estimates(comm, total)};
  }

 private:
  std::uint32_t patience_;
};

}  // namespace

std::unique_ptr<ClockSynchronizer> make_tree_clock_sync(std::uint32_t patience) {
  return std::make_unique<TreeClockSync>(patience);
}

}  // namespace collwrap::tracer
