#include "record/clock_pair_exchange.h"

#include <algorithm>
#include <cstring>

namespace collwrap::tracer {
namespace {

enum MessageKind : std::int64_t { kPing = 0, kResult = 1 };

// What the reference sends its peer: a ping (answered with the peer's clock) or the estimate.
// Four words: the kind, then the estimate's (offset, peer_time, rtt).
using SyncMessage = std::array<std::int64_t, 4>;

std::vector<std::uint8_t> to_bytes(const OffsetEstimate& e) {
  std::array<std::int64_t, 3> words = pack_estimate(e);
  std::vector<std::uint8_t> bytes(sizeof words);
  std::memcpy(bytes.data(), words.data(), sizeof words);
  return bytes;
}

OffsetEstimate from_bytes(std::span<const std::uint8_t> bytes) {
  std::array<std::int64_t, 3> words{};
  std::memcpy(words.data(), bytes.data(), std::min(bytes.size(), sizeof words));
  return unpack_estimate(words);
}

}  // namespace

std::array<std::int64_t, 3> pack_estimate(const OffsetEstimate& e) {
  return {std::int64_t(e.peer_time), e.offset, std::int64_t(e.rtt)};
}

OffsetEstimate unpack_estimate(std::span<const std::int64_t, 3> words) {
  return {Ticks(words[0]), words[1], Ticks(words[2])};
}

std::vector<OffsetEstimate> gather_estimates(ProcessGroup& group, const OffsetEstimate& own) {
  std::vector<OffsetEstimate> estimates;
  for (const auto& bytes : group.gather(to_bytes(own))) estimates.push_back(from_bytes(bytes));
  return estimates;
}

OffsetEstimate scatter_estimates(ProcessGroup& group, const std::vector<OffsetEstimate>& all) {
  std::vector<std::vector<std::uint8_t>> parts;
  for (const OffsetEstimate& e : all) parts.push_back(to_bytes(e));
  return from_bytes(group.scatter(parts));
}

OffsetEstimate measure_peer(ProcessGroup& group, int peer, std::uint32_t patience) {
  MinRttEstimator estimator(patience, max_exchanges_for(patience));
  const SyncMessage ping{kPing, 0, 0, 0};
  do {
    PingPongExchange exchange;
    std::array<std::int64_t, 1> peer_time{};
    exchange.ref_send = now();
    group.send_words(peer, ping);
    group.receive_words(peer, peer_time);
    exchange.ref_recv = now();
    exchange.peer_time = Ticks(peer_time[0]);
    estimator.add(exchange);
  } while (!estimator.done());
  OffsetEstimate best = estimator.best().value_or(OffsetEstimate{});
  const SyncMessage result{kResult, best.offset, std::int64_t(best.peer_time),
                           std::int64_t(best.rtt)};
  group.send_words(peer, result);
  return best;
}

OffsetEstimate answer_reference(ProcessGroup& group, int reference) {
  for (;;) {
    SyncMessage message{};
    group.receive_words(reference, message);
    if (message[0] == kResult) return {Ticks(message[2]), message[1], Ticks(message[3])};
    const std::array<std::int64_t, 1> t{std::int64_t(now())};
    group.send_words(reference, t);
  }
}

}  // namespace collwrap::tracer
