// What each phase of an analysis took (`analyzer --timings`): its wall time and the process's
// peak resident size while it ran, so that a user can see where the time and the memory go and
// size the machine (or the processes of a job) for a trace.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace collwrap {

// The process's peak resident size so far (VmHWM), in bytes; 0 when the system does not say.
std::uint64_t peak_resident_bytes();
// Starts the peak over from the current resident size (Linux: "5" into /proc/self/clear_refs),
// so that the next peak_resident_bytes() is the peak since now. Returns false when the system
// does not allow it; the peak then stays the one since the process started.
bool reset_peak_resident_bytes();

class PhaseTimings {
 public:
  using Clock = std::chrono::steady_clock;
  struct Phase {
    std::string name;
    double seconds = 0;
    std::uint64_t peak_bytes = 0;  // of the process, while the phase ran
  };

  explicit PhaseTimings(std::function<Clock::time_point()> now = Clock::now,
                        std::function<std::uint64_t()> peak_bytes = peak_resident_bytes,
                        std::function<bool()> reset_peak = reset_peak_resident_bytes);

  // Ends the current phase, if any, and starts `name`.
  void phase(std::string_view name);
  // Ends the current phase; nothing when none runs.
  void finish();

  const std::vector<Phase>& phases() const { return phases_; }
  // One line per phase, then the total: "  reading       0.41 s   256 MiB peak".
  void write(std::ostream& out) const;

 private:
  std::function<Clock::time_point()> now_;
  std::function<std::uint64_t()> peak_bytes_;
  std::function<bool()> reset_peak_;
  std::vector<Phase> phases_;
  std::optional<Clock::time_point> started_;  // of the current phase
};

}  // namespace collwrap
