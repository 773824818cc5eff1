#include "thresholds.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "catalog.h"

namespace collwrap {

WorseThreshold parse_worse_threshold(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos)
    throw std::invalid_argument("'" + std::string(text) +
                                "' has no ':PERCENT'; write PATTERN:PERCENT or total:PERCENT, "
                                "e.g. late_sender:10");
  WorseThreshold t{.subject = std::string(text.substr(0, colon))};
  const std::string_view number = text.substr(colon + 1);
  const auto [end, error] =
      std::from_chars(number.data(), number.data() + number.size(), t.percent);
  if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(t.percent) ||
      t.percent < 0)
    throw std::invalid_argument("PERCENT must be a number >= 0, not '" + std::string(number) + "'");
  if (t.subject != kTotalWaiting && find_pattern(t.subject) == nullptr)
    throw std::invalid_argument("unknown pattern id '" + t.subject +
                                "'; use total or a pattern id of 'analyzer --list-patterns'");
  return t;
}

bool is_worse(double base_s, double current_s, double percent) {
  const double growth = current_s - base_s;
  return growth > kWorseFloorS && growth > base_s * percent / 100;
}

ThresholdVerdict check_threshold(const WorseThreshold& threshold, const RunComparison& comparison) {
  ThresholdVerdict v{.threshold = threshold,
                     .base_label = comparison.base.label,
                     .current_label = comparison.current.label};
  if (threshold.subject == kTotalWaiting) {
    v.wait_s = comparison.total_wait_s;
  } else {
    const auto it = std::find_if(comparison.patterns.begin(), comparison.patterns.end(),
                                 [&](const NamedChange& p) { return p.name == threshold.subject; });
    if (it == comparison.patterns.end()) {
      v.comparable = false;
      return v;
    }
    v.wait_s = it->value;
  }
  v.crossed = is_worse(v.wait_s.base, v.wait_s.current, threshold.percent);
  return v;
}

}  // namespace collwrap
