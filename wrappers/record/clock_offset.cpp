#include "record/clock_offset.h"

#include <algorithm>
#include <cmath>

namespace collwrap::tracer {

OffsetEstimate estimate_offset(const PingPongExchange& e) {
  OffsetEstimate estimate;
  estimate.peer_time = e.peer_time;
  estimate.rtt = e.ref_recv >= e.ref_send ? e.ref_recv - e.ref_send : 0;
  // Unsigned wrap-around followed by the cast gives the signed difference.
  estimate.offset = std::int64_t(e.ref_recv - estimate.rtt / 2 - e.peer_time);
  return estimate;
}

MinRttEstimator::MinRttEstimator(std::uint32_t patience, std::uint32_t max_exchanges)
    : patience_(std::max<std::uint32_t>(patience, 1)),
      max_exchanges_(std::max<std::uint32_t>(max_exchanges, 1)) {}

void MinRttEstimator::add(const PingPongExchange& exchange) {
  ++exchanges_;
  if (exchange.ref_recv < exchange.ref_send) {  // a clock that ran backwards proves nothing
    ++since_improvement_;
    return;
  }
  OffsetEstimate estimate = estimate_offset(exchange);
  if (!best_ || estimate.rtt < best_->rtt) {
    best_ = estimate;
    since_improvement_ = 0;
  } else {
    ++since_improvement_;
  }
}

bool MinRttEstimator::done() const {
  return exchanges_ >= max_exchanges_ || (best_ && since_improvement_ >= patience_);
}

std::int64_t offset_at(std::span<const ClockOffsetSample> offsets, Ticks t) {
  if (offsets.empty()) return 0;
  if (offsets.size() == 1) return offsets.front().offset;
  // The interval [a, b] containing t; before the first or after the last record, the nearest
  // interval's line is extended, as OTF2's reader does.
  std::size_t i = 1;
  while (i + 1 < offsets.size() && t > offsets[i].local_time) ++i;
  const ClockOffsetSample& a = offsets[i - 1];
  const ClockOffsetSample& b = offsets[i];
  if (b.local_time == a.local_time) return a.offset;
  double slope = double(b.offset - a.offset) / (double(b.local_time) - double(a.local_time));
  double since_a = t >= a.local_time ? double(t - a.local_time) : -double(a.local_time - t);
  return a.offset + std::int64_t(std::rint(slope * since_a));
}

}  // namespace collwrap::tracer
