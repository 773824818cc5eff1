// Clock offset arithmetic (MPIPerf's min-round-trip method), free of MPI so it can be tested
// on synthetic timelines.
//
// A reference process (rank 0) sends a ping at ref_send, the peer answers with its own clock
// reading peer_time, the answer arrives at ref_recv. The smaller the round trip, the less
// room for asymmetric delays, so the exchange with the smallest RTT gives the estimate
//     offset = (ref_recv − RTT/2) − peer_time,      peer_time + offset ≈ reference time,
// with an uncertainty of at most RTT/2.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "record/local_definitions.h"
#include "record/recorder.h"

namespace collwrap::tracer {

struct PingPongExchange {
  Ticks ref_send = 0;
  Ticks peer_time = 0;
  Ticks ref_recv = 0;
};

struct OffsetEstimate {
  Ticks peer_time = 0;      // the peer's clock when it answered
  std::int64_t offset = 0;  // add to the peer's clock to get the reference clock
  Ticks rtt = 0;            // round trip of the exchange the estimate comes from (reference ticks)
};

OffsetEstimate estimate_offset(const PingPongExchange& exchange);

// Keeps the minimum-RTT exchange and decides when to stop: after `patience` consecutive
// exchanges without a smaller RTT (MPIPerf's rule), or after `max_exchanges` in total.
class MinRttEstimator {
 public:
  MinRttEstimator(std::uint32_t patience, std::uint32_t max_exchanges);
  void add(const PingPongExchange& exchange);
  bool done() const;
  std::optional<OffsetEstimate> best() const { return best_; }
  std::uint32_t exchanges() const { return exchanges_; }

 private:
  std::uint32_t patience_;
  std::uint32_t max_exchanges_;
  std::uint32_t exchanges_ = 0;
  std::uint32_t since_improvement_ = 0;
  std::optional<OffsetEstimate> best_;
};

// The offset in effect at local time t, as OTF2's reader applies ClockOffset records: linear
// interpolation between consecutive records, the first (last) interval's line extended before
// (after) them, a constant with one record, 0 without records.
std::int64_t offset_at(std::span<const ClockOffsetSample> offsets, Ticks t);

}  // namespace collwrap::tracer
