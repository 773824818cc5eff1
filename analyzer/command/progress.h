// Progress of a long analysis on the terminal: the phase (reading, matching, clock repair,
// patterns, writing reports), its percentage when known and the time so far, on one line of
// standard error redrawn in place ("\r"):
//
//     analyzer: [1/5] reading 42% (3 s)
//
// Nothing is shown for an analysis that ends within about two seconds, nor when standard
// error is not a terminal or --quiet is given. The line is erased before anything else is
// printed (finish()).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

#include "phase_timings.h"

namespace collwrap {

class ProgressReporter {
 public:
  using Clock = std::chrono::steady_clock;
  struct Options {
    bool enabled = true;                      // false: never prints anything
    std::chrono::milliseconds delay{2000};    // silent until the analysis has run this long
    std::chrono::milliseconds interval{200};  // at most one redraw per interval
    std::function<Clock::time_point()> now = Clock::now;  // injected by the tests
    PhaseTimings* timings = nullptr;  // --timings: told of every phase, shown or not
  };

  // `phases`: how many phase() calls the analysis will make, for "[2/5]".
  ProgressReporter(std::ostream& out, std::size_t phases, Options options);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // Starts the next phase; shown at once when the delay has passed.
  void phase(std::string_view name);
  // The done part of the current phase, 0 to 1. Cheap when no redraw is due. Thread-safe, like
  // every member.
  void progress(double fraction);
  // Redraws when due: the elapsed time moves on during phases that report no fraction.
  void tick();
  // Erases the line if one was drawn; later calls draw again only after a new phase().
  void finish();

  bool enabled() const { return options_.enabled; }

  // "analyzer: [2/5] matching 42% (3 s)"; no percentage without a fraction.
  static std::string line(std::size_t step, std::size_t steps, std::string_view phase,
                          std::optional<double> fraction, Clock::duration elapsed);

 private:
  void draw_if_due(bool phase_changed);  // with mutex_ held

  std::ostream& out_;
  const std::size_t phases_;
  const Options options_;
  const Clock::time_point start_;
  std::mutex mutex_;
  std::size_t step_ = 0;
  std::string phase_;
  std::optional<double> fraction_;
  std::optional<Clock::time_point> last_draw_;
  std::size_t drawn_width_ = 0;  // characters on the line now; 0 = nothing shown
  bool finished_ = false;
};

// Calls ProgressReporter::tick() every `interval` on a thread of its own until destroyed.
class ProgressTicker {
 public:
  ProgressTicker(ProgressReporter& reporter, std::chrono::milliseconds interval);
  ~ProgressTicker();
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// Whether progress should be shown on the stream of `fd`: a terminal, and not --quiet.
bool progress_wanted(bool quiet, int fd);

}  // namespace collwrap
