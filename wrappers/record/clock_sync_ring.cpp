// MPIPerf's ring scheme: every rank i > 0 is measured against rank i − 1, all pairs at once in
// two phases (even references, then odd ones, so no rank is in two pairs at a time); rank 0
// gathers the links, takes prefix sums and scatters the totals. Two pair measurements'
// time plus a gather and a scatter, instead of P − 1 pair measurements.
#include "record/clock_pair_exchange.h"
#include "record/clock_sync.h"
#include "record/clock_sync_math.h"

namespace collwrap::tracer {
namespace {

class RingClockSync final : public ClockSynchronizer {
 public:
  explicit RingClockSync(std::uint32_t patience) : patience_(patience) {}
  const char* name() const override { return "ring"; }

  ClockSyncResult synchronize(ProcessGroup& group) override {
    const int rank = group.rank(), size = group.size();
    OffsetEstimate link{now(), 0, 0};  // rank 0's: its own clock
    for (int phase = 0; phase < 2; ++phase) {
      if (rank % 2 == phase && rank + 1 < size) measure_peer(group, rank + 1, patience_);
      if (rank % 2 != phase && rank > 0) link = answer_reference(group, rank - 1);
    }
    ClockSyncResult result;
    std::vector<OffsetEstimate> links = gather_estimates(group, link);
    if (rank == 0) result.by_rank = ring_prefix_sums(links);
    result.own = scatter_estimates(group, result.by_rank);
    return result;
  }

 private:
  std::uint32_t patience_;
};

}  // namespace

std::unique_ptr<ClockSynchronizer> make_ring_clock_sync(std::uint32_t patience) {
  return std::make_unique<RingClockSync>(patience);
}

}  // namespace collwrap::tracer
