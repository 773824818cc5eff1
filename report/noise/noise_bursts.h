// NoM's noise collector, the arithmetic part: from the durations of a fixed work quantum timed
// back to back to noise bursts (Bartenev et al., RFNC-VNIIEF, "Tools for studying the instability
// of multiprocessor systems"). A quantum that took longer than the fastest one by more than a
// threshold was interrupted; the excess is the burst's duration and the quantum's start is the
// burst's start. Free of MPI and of any timer, so that tests feed it numbers.
#pragma once

#include <cstdint>
#include <vector>

namespace collwrap::noise {

// One burst on one rank. Times are seconds from the common start of the collection.
struct Burst {
  double start_s = 0;
  double duration_s = 0;
};

// One rank's bursts, by start time.
using RankBursts = std::vector<Burst>;

struct DetectedBursts {
  std::uint64_t quanta = 0;  // quanta timed
  double min_quantum_s = 0;  // the fastest quantum: the work without noise
  RankBursts bursts;
};

// Takes quanta as they are timed (ticks of any timer) and keeps only the candidates: quanta
// longer than the fastest so far by more than the threshold. The fastest quantum is known only
// at the end, so finish() measures every candidate again against it. Quanta judged before the
// minimum settled can be missed when they are slower than the final minimum plus threshold but
// not than the minimum of their time; timing quanta for a while before recording (the
// collector does, while it waits for the common start) makes that a matter of nanoseconds.
class BurstDetector {
 public:
  explicit BurstDetector(std::int64_t threshold_ticks) : threshold_(threshold_ticks) {}

  // Sets the fastest quantum seen before recording starts (warm-up).
  void observe(std::int64_t duration) {
    if (duration < min_) min_ = duration;
  }
  void add(std::int64_t start, std::int64_t duration) {
    ++quanta_;
    observe(duration);
    if (duration - min_ > threshold_) candidates_.push_back({start, duration});
  }

  // `origin`: the ticks of time 0; `ticks_per_second` converts.
  DetectedBursts finish(std::int64_t origin, double ticks_per_second) const;

 private:
  struct Candidate {
    std::int64_t start;
    std::int64_t duration;
  };
  std::int64_t threshold_;
  std::int64_t min_ = INT64_MAX;
  std::uint64_t quanta_ = 0;
  std::vector<Candidate> candidates_;
};

}  // namespace collwrap::noise
