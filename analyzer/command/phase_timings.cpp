#include "phase_timings.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace collwrap {

std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    std::uint64_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

bool reset_peak_resident_bytes() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";
  clear_refs.flush();
  return static_cast<bool>(clear_refs);
}

PhaseTimings::PhaseTimings(std::function<Clock::time_point()> now,
                           std::function<std::uint64_t()> peak_bytes,
                           std::function<bool()> reset_peak)
    : now_(std::move(now)),
      peak_bytes_(std::move(peak_bytes)),
      reset_peak_(std::move(reset_peak)) {}

void PhaseTimings::phase(std::string_view name) {
  finish();
  phases_.push_back({std::string(name)});
  // Where the system cannot reset the peak, each phase shows the peak so far, which is still
  // the right total.
  reset_peak_();
  started_ = now_();
}

void PhaseTimings::finish() {
  if (!started_) return;
  Phase& current = phases_.back();
  current.seconds = std::chrono::duration<double>(now_() - *started_).count();
  current.peak_bytes = peak_bytes_();
  started_.reset();
}

void PhaseTimings::write(std::ostream& out) const {
  double total = 0;
  std::uint64_t peak = 0;
  const auto row = [&out](std::string_view name, double seconds, std::uint64_t bytes) {
    char line[96];
    std::snprintf(line, sizeof line, "  %-16.*s %8.2f s %8.0f MiB peak\n",
                  static_cast<int>(name.size()), name.data(), seconds,
                  static_cast<double>(bytes) / (1024.0 * 1024.0));
    out << line;
  };
  out << "analyzer: time and peak resident size of each phase\n";
  for (const Phase& p : phases_) {
    row(p.name, p.seconds, p.peak_bytes);
    total += p.seconds;
    peak = std::max(peak, p.peak_bytes);
  }
  row("total", total, peak);
}

}  // namespace collwrap
