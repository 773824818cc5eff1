#include "record/clock_sync.h"

#include "record/clock_pair_exchange.h"
#include "record/clock_sync_math.h"

namespace collwrap::tracer {
namespace {

// MPIPerf's linear scheme: rank 0 measures each rank in turn, O(P) pair measurements.
class LinearClockSync final : public ClockSynchronizer {
 public:
  explicit LinearClockSync(std::uint32_t patience) : patience_(patience) {}
  const char* name() const override { return "linear"; }

  ClockSyncResult synchronize(ProcessGroup& group) override {
    const int size = group.size();
    if (group.rank() != 0) return {answer_reference(group, 0), {}};
    ClockSyncResult result;
    result.by_rank.resize(std::size_t(size));
    for (int peer = 1; peer < size; ++peer) {
      result.by_rank[std::size_t(peer)] = measure_peer(group, peer, patience_);
    }
    result.own = {now(), 0, 0};
    result.by_rank[0] = result.own;
    return result;
  }

 private:
  std::uint32_t patience_;
};

// No measurement: every rank's offset is 0 (clocks assumed aligned, e.g. one host).
class NoClockSync final : public ClockSynchronizer {
 public:
  const char* name() const override { return "off"; }
  ClockSyncResult synchronize(ProcessGroup&) override { return {{now(), 0, 0}, {}}; }
};

}  // namespace

std::unique_ptr<ClockSynchronizer> make_clock_synchronizer(ClockSyncKind kind,
                                                           std::uint32_t patience, int size) {
  switch (resolve_clocksync(kind, size)) {
    case ClockSyncKind::Off:
      return std::make_unique<NoClockSync>();
    case ClockSyncKind::Ring:
      return make_ring_clock_sync(patience);
    case ClockSyncKind::Tree:
      return make_tree_clock_sync(patience);
    default:
      return std::make_unique<LinearClockSync>(patience);
  }
}

}  // namespace collwrap::tracer
