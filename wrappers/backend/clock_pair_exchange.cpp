#include "backend/clock_pair_exchange.h"

#include <array>

namespace collwrap::tracer {
namespace {

constexpr int kClockSyncTag = 0x636c;  // on the tracer's private communicator

enum MessageKind : std::int64_t { kPing = 0, kResult = 1 };

// What the reference sends its peer: a ping (answered with the peer's clock) or the estimate.
struct SyncMessage {
  std::int64_t kind = kPing;
  std::int64_t offset = 0;
  std::int64_t peer_time = 0;
  std::int64_t rtt = 0;
};

// An estimate on the wire: three 64-bit integers.
std::array<std::int64_t, 3> pack(const OffsetEstimate& e) {
  return {std::int64_t(e.peer_time), e.offset, std::int64_t(e.rtt)};
}
OffsetEstimate unpack(const std::int64_t* p) {
  return {Ticks(p[0]), p[1], Ticks(p[2])};
}

}  // namespace

std::vector<OffsetEstimate> gather_estimates(MPI_Comm comm, const OffsetEstimate& own) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  std::array<std::int64_t, 3> mine = pack(own);
  std::vector<std::int64_t> all(rank == 0 ? 3 * std::size_t(size) : 0);
  PMPI_Gather(mine.data(), 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, 0, comm);
  std::vector<OffsetEstimate> estimates;
  for (std::size_t i = 0; i + 2 < all.size(); i += 3) estimates.push_back(unpack(&all[i]));
  return estimates;
}

OffsetEstimate scatter_estimates(MPI_Comm comm, const std::vector<OffsetEstimate>& all) {
  std::vector<std::int64_t> packed;
  for (const OffsetEstimate& e : all) {
    std::array<std::int64_t, 3> p = pack(e);
    packed.insert(packed.end(), p.begin(), p.end());
  }
  std::array<std::int64_t, 3> mine{};
  PMPI_Scatter(packed.data(), 3, MPI_INT64_T, mine.data(), 3, MPI_INT64_T, 0, comm);
  return unpack(mine.data());
}

OffsetEstimate measure_peer(MPI_Comm comm, int peer, std::uint32_t patience) {
  MinRttEstimator estimator(patience, max_exchanges_for(patience));
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
  SyncMessage result{kResult, best.offset, std::int64_t(best.peer_time), std::int64_t(best.rtt)};
  PMPI_Send(&result, 4, MPI_INT64_T, peer, kClockSyncTag, comm);
  return best;
}

OffsetEstimate answer_reference(MPI_Comm comm, int reference) {
  for (;;) {
    SyncMessage message;
    PMPI_Recv(&message, 4, MPI_INT64_T, reference, kClockSyncTag, comm, MPI_STATUS_IGNORE);
    if (message.kind == kResult) {
      return {Ticks(message.peer_time), message.offset, Ticks(message.rtt)};
    }
    Ticks t = now();
    PMPI_Send(&t, 1, MPI_UINT64_T, reference, kClockSyncTag, comm);
  }
}

}  // namespace collwrap::tracer
