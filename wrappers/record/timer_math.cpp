#include "record/timer_math.h"

#include <cmath>

namespace collwrap::tracer {

TimerSample tightest_sample(std::span<const BracketedReading> readings) {
  TimerSample best;
  std::int64_t best_width = -1;
  for (const BracketedReading& r : readings) {
    std::int64_t width = r.after_ns - r.before_ns;
    if (width < 0) continue;
    if (best_width < 0 || width < best_width) {
      best_width = width;
      best = {r.ticks, r.before_ns + width / 2};
    }
  }
  return best;
}

double ticks_per_second(TimerSample earlier, TimerSample later) {
  if (later.monotonic_ns <= earlier.monotonic_ns || later.ticks <= earlier.ticks) return 0;
  return double(later.ticks - earlier.ticks) * 1e9 /
         double(later.monotonic_ns - earlier.monotonic_ns);
}

std::vector<int> rate_mismatches(std::span<const double> rates) {
  std::vector<int> ranks;
  if (rates.empty() || rates[0] <= 0) return ranks;
  for (std::size_t i = 1; i < rates.size(); ++i) {
    if (rates[i] > 0 && std::fabs(rates[i] / rates[0] - 1) > kRateMismatchTolerance) {
      ranks.push_back(int(i));
    }
  }
  return ranks;
}

namespace {
bool has_flag(std::string_view flags_line, std::string_view flag) {
  std::size_t pos = 0;
  while ((pos = flags_line.find(flag, pos)) != std::string_view::npos) {
    bool starts = pos == 0 || flags_line[pos - 1] == ' ' || flags_line[pos - 1] == '\t';
    std::size_t end = pos + flag.size();
    bool ends = end == flags_line.size() || flags_line[end] == ' ' || flags_line[end] == '\n';
    if (starts && ends) return true;
    pos = end;
  }
  return false;
}
}  // namespace

bool cpuinfo_has_invariant_tsc(std::string_view cpuinfo) {
  // Look at the first "flags" line only: all CPUs of a machine report the same TSC features.
  std::size_t pos = cpuinfo.find("\nflags");
  if (pos == std::string_view::npos) {
    if (!cpuinfo.starts_with("flags")) return false;
    pos = 0;
  }
  std::size_t end = cpuinfo.find('\n', pos + 1);
  std::string_view line = cpuinfo.substr(pos, end == std::string_view::npos ? end : end - pos);
  return has_flag(line, "constant_tsc") && has_flag(line, "nonstop_tsc");
}

}  // namespace collwrap::tracer
