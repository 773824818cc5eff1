#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace collwrap {

ProgressReporter::ProgressReporter(std::ostream& out, std::size_t phases, Options options)
    : out_(out), phases_(phases), options_(std::move(options)), start_(options_.now()) {}

ProgressReporter::~ProgressReporter() {
  finish();
}

std::string ProgressReporter::line(std::size_t step, std::size_t steps, std::string_view phase,
                                   std::optional<double> fraction, Clock::duration elapsed) {
  std::string text = "analyzer: [" + std::to_string(step) + "/" + std::to_string(steps) + "] ";
  text += phase;
  if (fraction) {
    const double f = std::clamp(std::isfinite(*fraction) ? *fraction : 0.0, 0.0, 1.0);
    text.append(" ").append(std::to_string(static_cast<int>(std::floor(f * 100)))).append("%");
  }
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(elapsed).count();
  text += " (" + std::to_string(seconds) + " s)";
  return text;
}

void ProgressReporter::phase(std::string_view name) {
  const std::lock_guard lock(mutex_);
  if (options_.timings) options_.timings->phase(name);
  ++step_;
  phase_ = std::string(name);
  fraction_.reset();
  finished_ = false;
  draw_if_due(true);
}

void ProgressReporter::progress(double fraction) {
  const std::lock_guard lock(mutex_);
  fraction_ = fraction;
  draw_if_due(false);
}

void ProgressReporter::tick() {
  const std::lock_guard lock(mutex_);
  draw_if_due(false);
}

void ProgressReporter::finish() {
  const std::lock_guard lock(mutex_);
  if (options_.timings) options_.timings->finish();
  finished_ = true;
  if (drawn_width_ == 0) return;
  out_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
  drawn_width_ = 0;
}

void ProgressReporter::draw_if_due(bool phase_changed) {
  if (!options_.enabled || finished_ || step_ == 0) return;
  const Clock::time_point now = options_.now();
  if (now - start_ < options_.delay) return;
  if (!phase_changed && last_draw_ && now - *last_draw_ < options_.interval) return;
  last_draw_ = now;
  const std::string text = line(step_, phases_, phase_, fraction_, now - start_);
  // Counted in bytes: the text is ASCII apart from the phase names, which are ours.
  const std::size_t pad = drawn_width_ > text.size() ? drawn_width_ - text.size() : 0;
  out_ << '\r' << text << std::string(pad, ' ') << std::flush;
  drawn_width_ = text.size();
}

ProgressTicker::ProgressTicker(ProgressReporter& reporter, std::chrono::milliseconds interval)
    : thread_([this, &reporter, interval] {
        std::unique_lock lock(mutex_);
        while (!wake_.wait_for(lock, interval, [this] { return stop_; })) {
          lock.unlock();
          reporter.tick();
          lock.lock();
        }
      }) {}

ProgressTicker::~ProgressTicker() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

bool progress_wanted(bool quiet, int fd) {
  return !quiet && ::isatty(fd) == 1;
}

}  // namespace collwrap
