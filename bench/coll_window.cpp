#include "coll_window.h"

#include <algorithm>
#include <cmath>

namespace collwrap::bench {

std::int64_t run_start(std::int64_t stage_start, std::int64_t window, int run) {
  return stage_start + std::int64_t(run) * window;
}

RunVerdict judge_run(std::int64_t stage_start, std::int64_t window, int run, std::int64_t started,
                     std::int64_t ended) {
  const std::int64_t start = run_start(stage_start, window, run);
  if (started > start) return RunVerdict::LateStart;
  if (ended > start + window) return RunVerdict::Overrun;
  return RunVerdict::Valid;
}

namespace {

std::int64_t widened(std::int64_t stage_start, std::int64_t stage_end, int runs, double gamma) {
  const double per_run = double(std::max<std::int64_t>(stage_end - stage_start, 0)) / runs;
  return std::max<std::int64_t>(1, std::llround(gamma * per_run));
}

}  // namespace

std::int64_t initial_window(std::int64_t stage_start, std::int64_t stage_end, int runs,
                            double gamma) {
  return widened(stage_start, stage_end, runs, gamma);
}

std::int64_t next_window(std::int64_t window, std::int64_t stage_start, std::int64_t stage_end,
                         int runs, int invalid, const WindowParameters& p) {
  if (double(invalid) <= p.invalid_fraction * runs) return window;
  const std::int64_t at_least = std::max<std::int64_t>(window + 1, std::llround(p.gamma * window));
  return std::max(at_least, widened(stage_start, stage_end, runs, p.gamma));
}

}  // namespace collwrap::bench
