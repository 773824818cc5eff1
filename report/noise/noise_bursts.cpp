#include "noise_bursts.h"

namespace collwrap::noise {

DetectedBursts BurstDetector::finish(std::int64_t origin, double ticks_per_second) const {
  DetectedBursts out;
  out.quanta = quanta_;
  if (quanta_ == 0) return out;
  out.min_quantum_s = double(min_) / ticks_per_second;
  for (const Candidate& c : candidates_) {
    const std::int64_t excess = c.duration - min_;
    if (excess > threshold_)
      out.bursts.push_back(
          {double(c.start - origin) / ticks_per_second, double(excess) / ticks_per_second});
  }
  return out;
}

}  // namespace collwrap::noise
