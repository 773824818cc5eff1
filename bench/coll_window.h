// MPIPerf's synchronized-start schedule (Kurnosov, "MPIPerf: a package for evaluating the
// efficiency of MPI communication functions", step 3), free of MPI. Measurement proceeds in stages:
// rank 0 broadcasts a stage start T_j in global time, run l of the stage starts at T_j + l·δ_j on
// every rank, and must end by T_j + (l+1)·δ_j. A run that starts late on some rank (the rank was
// still busy, or the broadcast arrived after the start) or overruns its window is invalid: its
// ranks did not start together, or the next run's start disturbed it. All times are global-clock
// ticks.
#pragma once

#include <cstdint>

namespace collwrap::bench {

struct WindowParameters {
  int warmup_runs = 4;             // k': stage 0, back to back (δ_0 = 0), never counted
  int runs_per_stage = 8;          // k
  double invalid_fraction = 0.25;  // q: widen δ when more than this share of a stage is invalid
  double gamma = 1.1;              // γ: the widening factor, 1 < γ < 2
};

std::int64_t run_start(std::int64_t stage_start, std::int64_t window, int run);

enum class RunVerdict { Valid, LateStart, Overrun };

// One rank's view of run `run`: it started at `started` and ended at `ended`.
RunVerdict judge_run(std::int64_t stage_start, std::int64_t window, int run, std::int64_t started,
                     std::int64_t ended);

// δ_1 from the warm-up stage, which ran `runs` calls back to back from T_0 until τ_0 (the last
// rank's end): γ·(τ_0 − T_0)/k'. At least one tick.
std::int64_t initial_window(std::int64_t stage_start, std::int64_t stage_end, int runs,
                            double gamma);

// δ_{j+1} after stage j (T_j … τ_j, `invalid` of `runs` runs invalid): unchanged unless more
// than q of the runs were invalid, then γ·(τ_j − T_j)/k. The seed's formula alone can shrink δ
// when the failures were late starts but the last run ended early; the window then grows by at
// least γ, so that adaptation always makes progress.
std::int64_t next_window(std::int64_t window, std::int64_t stage_start, std::int64_t stage_end,
                         int runs, int invalid, const WindowParameters& p);

}  // namespace collwrap::bench
