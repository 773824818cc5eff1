#include "clock/timer_check.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "clock/global_clock.h"
#include "clock/timer_check_verdict.h"
#include "mpi/mpi_process_group.h"
#include "record/clock_pair_exchange.h"
#include "record/clock_sync.h"
#include "record/timer.h"
#include "record/timer_math.h"

namespace collwrap::tracer {
namespace {

// Rank 0 announces T this far ahead, so that the broadcast reaches every rank before T.
constexpr double kStartMarginUs = 2000;

// One run: rank 0 announces T, rank i spins until T + (i+1)·spin_us by the global clock
// (spin_us = 0: WaitPatternNull). Returns, on rank 0, max over ranks of (end − T) in µs.
double run_pattern(const GlobalClock& clock, MPI_Comm comm, int rank, double spin_us) {
  std::int64_t start = 0;
  if (rank == 0) start = clock.now() + clock.ticks(kStartMarginUs);
  MPI_Bcast(&start, 1, MPI_INT64_T, 0, comm);
  clock.wait_until(start);
  clock.wait_until(start + clock.ticks((rank + 1) * spin_us));
  std::int64_t elapsed = clock.now() - start, longest = 0;
  MPI_Reduce(&elapsed, &longest, 1, MPI_INT64_T, MPI_MAX, 0, comm);
  return clock.microseconds(longest);
}

const char* check_line(bool ok) {
  return ok ? "<=" : ">";
}

void print_report(const char* program, const TimerCheckOptions& o, int size,
                  const GlobalClock& clock, double slowest_sync_ms,
                  const std::vector<OffsetEstimate>& stated,
                  const std::vector<OffsetEstimate>& measured, const TimerCheckFigures& figures,
                  const TimerCheckVerdict& v) {
  std::printf("%s: %d ranks, timer %s at %.0f ticks/s, sync %s (patience %u)\n", program, size,
              timer_kind_name(timer::active()), clock.rate(), clock.sync_name(), o.patience);
  std::printf("sync time: %.3f ms\n", slowest_sync_ms);
  double worst_stated = 0;
  std::printf("residual offsets (us; a direct re-measurement minus sync's offset):\n");
  for (int r = 0; r < size; ++r) {
    const double stated_us = clock.microseconds(std::int64_t(stated[std::size_t(r)].rtt)) / 2;
    const double recheck_us = clock.microseconds(std::int64_t(measured[std::size_t(r)].rtt)) / 2;
    std::printf("  rank %d: residual %+.3f, stated +-%.3f, re-measured +-%.3f\n", r,
                figures.residual_us[std::size_t(r)], stated_us, recheck_us);
    worst_stated = std::max(worst_stated, stated_us);
  }
  std::printf("check residual offsets: largest |residual| %.3f us %s %.0f us\n",
              v.worst_residual_us, check_line(v.residuals_ok), kTimerTrustUs);
  std::printf(
      "WaitPatternNull: expected 0.000 us, measured median %.3f min %.3f max %.3f us "
      "over %d runs\n",
      v.null.median, v.null.min, v.null.max, o.repeat);
  std::printf("check WaitPatternNull: |median - expected| %.3f us %s %.0f us\n",
              v.null_deviation_us, check_line(v.null_ok), kTimerTrustUs);
  std::printf(
      "WaitPatternUp: expected %.3f us, measured median %.3f min %.3f max %.3f us "
      "over %d runs\n",
      figures.expected_up_us, v.up.median, v.up.min, v.up.max, o.repeat);
  std::printf("check WaitPatternUp: |median - expected| %.3f us %s %.0f us\n", v.up_deviation_us,
              check_line(v.up_ok), kTimerTrustUs);
  for (int r : v.rate_mismatched) {
    std::printf("timer rate: rank %d at %.0f ticks/s, more than %.2f %% off rank 0's %.0f\n", r,
                figures.rates[std::size_t(r)], kRateMismatchTolerance * 100, figures.rates[0]);
  }
  std::printf("timer rates: %zu of %d ranks more than %.2f %% off rank 0\n",
              v.rate_mismatched.size(), size, kRateMismatchTolerance * 100);
  std::printf("summary: sync=%s ranks=%d sync_ms=%.3f max_residual_us=%.3f max_stated_us=%.3f\n",
              clock.sync_name(), size, slowest_sync_ms, v.worst_residual_us, worst_stated);
  std::printf("verdict: timer and offsets %s at the %.0f us level\n",
              v.trusted ? "can be trusted" : "can NOT be trusted", kTimerTrustUs);
}

}  // namespace

int run_timer_check(const char* program, const TimerCheckOptions& o, MPI_Comm comm,
                    TimerCheckOutcome* outcome) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const GlobalClock clock(comm, o.sync, o.patience);
  double sync_ms = clock.sync_ms(), slowest_sync_ms = 0;
  MPI_Reduce(&sync_ms, &slowest_sync_ms, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MpiProcessGroup group(comm);
  const OffsetEstimate recheck =
      make_clock_synchronizer(ClockSyncKind::Linear, o.patience, size)->synchronize(group).own;
  const std::vector<OffsetEstimate> stated = gather_estimates(group, clock.offset());
  const std::vector<OffsetEstimate> measured = gather_estimates(group, recheck);

  TimerCheckFigures figures;
  double rate = clock.rate();
  figures.rates.resize(rank == 0 ? std::size_t(size) : 0);
  MPI_Gather(&rate, 1, MPI_DOUBLE, figures.rates.data(), 1, MPI_DOUBLE, 0, comm);
  for (int r = 0; r < o.repeat; ++r) {
    figures.null_us.push_back(run_pattern(clock, comm, rank, 0));
    figures.up_us.push_back(run_pattern(clock, comm, rank, o.unit_us));
  }
  if (rank != 0) return 0;
  figures.expected_up_us = size * o.unit_us;
  for (int r = 0; r < size; ++r)
    figures.residual_us.push_back(
        clock.microseconds(measured[std::size_t(r)].offset - stated[std::size_t(r)].offset));
  const TimerCheckVerdict verdict = judge_timer_check(figures);
  print_report(program, o, size, clock, slowest_sync_ms, stated, measured, figures, verdict);
  std::fflush(stdout);
  if (outcome)
    *outcome = {size,
                timer_kind_name(timer::active()),
                clock.rate(),
                clock.sync_name(),
                slowest_sync_ms,
                figures,
                verdict};
  return 0;
}

}  // namespace collwrap::tracer
