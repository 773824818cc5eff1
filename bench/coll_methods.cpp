#include "coll_methods.h"

#include <algorithm>

#include "coll_run_log.h"

namespace collwrap::bench {
namespace {

using tracer::GlobalClock;

constexpr int kLeadProbes = 10;
// Added to the measured broadcast time: a scheduler hiccup on a loaded node should not make a
// whole stage start late.
constexpr double kLeadSlackUs = 50;

// Runs the collective; the last rank first waits until `inject_until` (tests use it to give a
// collective a known duration).
void run_once(const Collective& collective, CollCall& call, const GlobalClock& clock,
              std::int64_t inject_until) {
  if (inject_until && call.rank == call.size - 1) clock.wait_until(inject_until);
  collective.run(call);
}

// Collects a stage's per-rank times and invalid flags on rank 0, adds them to `log` and applies
// the stopping rule there; every rank learns whether to go on.
bool stage_done(RunLog& log, const std::vector<double>& times_us, const std::vector<int>& invalid,
                const CollCall& call, const CollSettings& s) {
  const int runs = int(times_us.size());
  std::vector<double> all_times(call.rank == 0 ? std::size_t(runs * call.size) : 0);
  std::vector<int> all_invalid(all_times.size());
  MPI_Gather(times_us.data(), runs, MPI_DOUBLE, all_times.data(), runs, MPI_DOUBLE, 0, call.comm);
  MPI_Gather(invalid.data(), runs, MPI_INT, all_invalid.data(), runs, MPI_INT, 0, call.comm);
  int done = 0;
  if (call.rank == 0) {
    // Rank-major from the gather; the log wants run-major, and a run is invalid on any rank.
    std::vector<double> by_run(all_times.size());
    std::vector<int> run_invalid(std::size_t(runs), 0);
    for (int r = 0; r < call.size; ++r)
      for (int l = 0; l < runs; ++l) {
        by_run[std::size_t(l * call.size + r)] = all_times[std::size_t(r * runs + l)];
        run_invalid[std::size_t(l)] |= all_invalid[std::size_t(r * runs + l)];
      }
    log.add_stage(by_run, run_invalid);
    done = measurement_done(s.stopping, log.total(), log.valid_times_us());
  }
  MPI_Bcast(&done, 1, MPI_INT, 0, call.comm);
  return done != 0;
}

CollMeasurement finish(const RunLog& log, const CollSettings& s) {
  return {summarize_runs(log.total(), log.valid_times_us(), s.trim_fraction, s.confidence),
          log.per_rank_mean_us(), 0};
}

CollMeasurement measure_window(const GlobalClock& clock, std::int64_t lead, const Collective& c,
                               CollCall& call, const CollSettings& s) {
  const int k = s.window.runs_per_stage;
  const std::int64_t inject = clock.ticks(s.inject_us);
  // Stage 0: warm-up calls back to back from a common start; their pace gives δ_1.
  std::int64_t plan[2] = {0, 0};  // T_j, δ_j
  if (call.rank == 0) plan[0] = clock.now() + lead;
  MPI_Bcast(plan, 2, MPI_INT64_T, 0, call.comm);
  clock.wait_until(plan[0]);
  for (int l = 0; l < s.window.warmup_runs; ++l)
    run_once(c, call, clock, inject ? clock.now() + inject : 0);
  std::int64_t end = clock.now(), last_end = 0;
  MPI_Reduce(&end, &last_end, 1, MPI_INT64_T, MPI_MAX, 0, call.comm);
  std::int64_t window = initial_window(plan[0], last_end, s.window.warmup_runs, s.window.gamma);

  RunLog log(call.size, RunTimeRule::MaxOverRanks);
  std::vector<double> times_us(std::size_t(k), 0.0);
  std::vector<int> invalid(std::size_t(k), 0);
  for (bool done = false; !done;) {
    if (call.rank == 0) {
      plan[0] = clock.now() + lead;
      plan[1] = window;
    }
    MPI_Bcast(plan, 2, MPI_INT64_T, 0, call.comm);
    for (int l = 0; l < k; ++l) {
      const std::int64_t start = run_start(plan[0], plan[1], l);
      const bool on_time = clock.wait_until(start);
      const std::int64_t started = on_time ? start : clock.now();
      run_once(c, call, clock, inject ? start + inject : 0);
      end = clock.now();
      times_us[std::size_t(l)] = clock.microseconds(end - start);
      invalid[std::size_t(l)] = judge_run(plan[0], plan[1], l, started, end) != RunVerdict::Valid;
    }
    MPI_Reduce(&end, &last_end, 1, MPI_INT64_T, MPI_MAX, 0, call.comm);
    const int failed_before = log.failed();
    done = stage_done(log, times_us, invalid, call, s);
    if (call.rank == 0)
      window = next_window(window, plan[0], last_end, k, log.failed() - failed_before, s.window);
  }
  CollMeasurement m = finish(log, s);
  m.window_us = clock.microseconds(plan[1]);
  return m;
}

// The barrier and naive methods: warm-up calls, then stages of runs that each start right after
// a barrier and take `time_run`'s time (µs); no run is ever judged invalid.
template <typename TimeRun>
CollMeasurement measure_after_barriers(const CollSettings& s, CollCall& call, RunTimeRule rule,
                                       TimeRun time_run) {
  for (int l = 0; l < s.window.warmup_runs; ++l) {
    MPI_Barrier(call.comm);
    time_run();
  }
  RunLog log(call.size, rule);
  std::vector<double> times_us(std::size_t(s.window.runs_per_stage), 0.0);
  const std::vector<int> valid(times_us.size(), 0);
  for (bool done = false; !done;) {
    for (double& t : times_us) {
      MPI_Barrier(call.comm);
      t = time_run();
    }
    done = stage_done(log, times_us, valid, call, s);
  }
  return finish(log, s);
}

// IMB-style: a barrier before every call; the run's time is the max over ranks.
CollMeasurement measure_barrier(const GlobalClock& clock, const Collective& c, CollCall& call,
                                const CollSettings& s) {
  const std::int64_t inject = clock.ticks(s.inject_us);
  return measure_after_barriers(s, call, RunTimeRule::MaxOverRanks, [&] {
    const std::int64_t start = clock.now();
    run_once(c, call, clock, inject ? start + inject : 0);
    return clock.microseconds(clock.now() - start);
  });
}

// OSU-style: calls back to back, the mean per call as rank 0 sees it.
CollMeasurement measure_naive(const GlobalClock& clock, const Collective& c, CollCall& call,
                              const CollSettings& s) {
  const std::int64_t inject = clock.ticks(s.inject_us);
  return measure_after_barriers(s, call, RunTimeRule::RankZero, [&] {
    const std::int64_t start = clock.now();
    for (int i = 0; i < s.naive_iterations; ++i)
      run_once(c, call, clock, inject ? clock.now() + inject : 0);
    return clock.microseconds(clock.now() - start) / s.naive_iterations;
  });
}

}  // namespace

std::int64_t stage_start_lead(const GlobalClock& clock, MPI_Comm comm) {
  std::int64_t slowest = 0;
  // Probe 0 also pays for the broadcast's first-use set-up; it does not count.
  for (int probe = 0; probe <= kLeadProbes; ++probe) {
    std::int64_t sent = clock.now();
    MPI_Bcast(&sent, 1, MPI_INT64_T, 0, comm);
    std::int64_t took = clock.now() - sent, longest = 0;
    MPI_Reduce(&took, &longest, 1, MPI_INT64_T, MPI_MAX, 0, comm);
    if (probe > 0) slowest = std::max(slowest, longest);
  }
  return 2 * slowest + clock.ticks(kLeadSlackUs);
}

CollMeasurement measure_collective(const GlobalClock& clock, std::int64_t lead,
                                   const Collective& collective, CollCall& call,
                                   const CollSettings& settings) {
  switch (settings.method) {
    case CollMethod::Window:
      return measure_window(clock, lead, collective, call, settings);
    case CollMethod::Barrier:
      return measure_barrier(clock, collective, call, settings);
    case CollMethod::Naive:
      break;
  }
  return measure_naive(clock, collective, call, settings);
}

}  // namespace collwrap::bench
