// MPIPerf's ring scheme: every rank i > 0 is measured against rank i − 1, all pairs at once in
// two phases (even references, then odd ones, so no rank is in two pairs at a time); rank 0
// gathers the links, takes prefix sums and scatters the totals. Two pair measurements'
// time plus a gather and a scatter, instead of P − 1 pair measurements.
#include "backend/clock_pair_exchange.h"
#include "backend/clock_sync.h"
#include "backend/clock_sync_math.h"

namespace collwrap::tracer {
namespace {

class RingClockSync final : public ClockSynchronizer {
 public:
  explicit RingClockSync(std::uint32_t patience) : patience_(patience) {}
  const char* name() const override { return "ring"; }

  ClockSyncResult synchronize(MPI_Comm comm) override {
    int rank = 0, size = 1;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    OffsetEstimate link{now(), 0, 0};  // rank 0's: its own clock
    for (int phase = 0; phase < 2; ++phase) {
      if (rank % 2 == phase && rank + 1 < size) measure_peer(comm, rank + 1, patience_);
      if (rank % 2 != phase && rank > 0) link = answer_reference(comm, rank - 1);
    }
    ClockSyncResult result;
    std::vector<OffsetEstimate> links = gather_estimates(comm, link);
    if (rank == 0) result.by_rank = ring_prefix_sums(links);
    result.own = scatter_estimates(comm, result.by_rank);
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
