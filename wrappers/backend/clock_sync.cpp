#include "backend/clock_sync.h"

namespace collwrap::tracer {
namespace {

constexpr int kClockSyncTag = 0x636c;  // on the tracer's private communicator

enum MessageKind : std::int64_t { kPing = 0, kResult = 1 };

// What rank 0 sends a peer: a ping (answered with the peer's clock) or the final estimate.
struct SyncMessage {
  std::int64_t kind = kPing;
  std::int64_t offset = 0;
  std::int64_t peer_time = 0;
  std::int64_t rtt = 0;
};

// MPIPerf's linear scheme: rank 0 measures each rank in turn.
class LinearClockSync final : public ClockSynchronizer {
 public:
  explicit LinearClockSync(std::uint32_t patience) : patience_(patience) {}
  const char* name() const override { return "linear"; }

  ClockSyncResult synchronize(MPI_Comm comm) override {
    int rank = 0, size = 1;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    return rank == 0 ? measure_all(comm, size) : answer(comm);
  }

 private:
  ClockSyncResult measure_all(MPI_Comm comm, int size) const {
    ClockSyncResult result;
    result.by_rank.resize(std::size_t(size));
    for (int peer = 1; peer < size; ++peer) {
      MinRttEstimator estimator(patience_, max_exchanges_for(patience_));
      SyncMessage ping;
      do {
        PingPongExchange exchange;
        Ticks peer_time = 0;
        exchange.ref_send = now();
        PMPI_Send(&ping, 4, MPI_INT64_T, peer, kClockSyncTag, comm);
        PMPI_Recv(&peer_time, 1, MPI_UINT64_T, peer, kClockSyncTag, comm, MPI_STATUS_IGNORE);
        exchange.ref_recv = now();
        exchange.peer_time = peer_time;
        estimator.add(exchange);
      } while (!estimator.done());
      OffsetEstimate best = estimator.best().value_or(OffsetEstimate{});
      SyncMessage final_message{kResult, best.offset, std::int64_t(best.peer_time),
                                std::int64_t(best.rtt)};
      PMPI_Send(&final_message, 4, MPI_INT64_T, peer, kClockSyncTag, comm);
      result.by_rank[std::size_t(peer)] = best;
    }
    result.own = {now(), 0, 0};
    result.by_rank[0] = result.own;
    return result;
  }

  static ClockSyncResult answer(MPI_Comm comm) {
    for (;;) {
      SyncMessage message;
      PMPI_Recv(&message, 4, MPI_INT64_T, 0, kClockSyncTag, comm, MPI_STATUS_IGNORE);
      if (message.kind == kResult) {
        ClockSyncResult result;
        result.own = {Ticks(message.peer_time), message.offset, Ticks(message.rtt)};
        return result;
      }
      Ticks t = now();
      PMPI_Send(&t, 1, MPI_UINT64_T, 0, kClockSyncTag, comm);
    }
  }

  std::uint32_t patience_;
};

// No measurement: every rank's offset is 0 (clocks assumed aligned, e.g. one host).
class NoClockSync final : public ClockSynchronizer {
 public:
  const char* name() const override { return "off"; }
  ClockSyncResult synchronize(MPI_Comm) override { return {{now(), 0, 0}, {}}; }
};

}  // namespace

std::unique_ptr<ClockSynchronizer> make_clock_synchronizer(ClockSyncKind kind,
                                                           std::uint32_t patience) {
  if (kind == ClockSyncKind::Off) return std::make_unique<NoClockSync>();
  return std::make_unique<LinearClockSync>(patience);
}

}  // namespace collwrap::tracer
