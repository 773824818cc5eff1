// `--fail-if-worse PATTERN:PERCENT` and `--fail-if-worse total:PERCENT`: when the new run's
// waiting (of one pattern, or of all patterns, none counted twice) exceeds the base run's by
// more than PERCENT percent, `analyzer compare` exits with kExitWorse, so CI can fail a commit
// that makes the waiting worse. Growth below kWorseFloorS never counts: a run that waits 0.2 ms
// instead of 0.1 ms is timer noise, not a regression.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "run_comparison.h"

namespace collwrap {

inline constexpr int kExitWorse = 3;
inline constexpr double kWorseFloorS = 1e-3;
inline constexpr std::string_view kTotalWaiting = "total";

struct WorseThreshold {
  std::string subject;  // a pattern id or kTotalWaiting
  double percent = 0;   // >= 0
};

// "late_sender:10", "total:5", "total:0". Throws std::invalid_argument saying what is wrong.
WorseThreshold parse_worse_threshold(std::string_view text);

// Whether `current` is worse than `base` beyond `percent` (and beyond kWorseFloorS).
bool is_worse(double base_s, double current_s, double percent);

struct ThresholdVerdict {
  WorseThreshold threshold;
  std::string base_label, current_label;
  Change wait_s{};
  bool comparable = true;  // false: a run did not look for the pattern (never crossed)
  bool crossed = false;
};

ThresholdVerdict check_threshold(const WorseThreshold& threshold, const RunComparison& comparison);

}  // namespace collwrap
