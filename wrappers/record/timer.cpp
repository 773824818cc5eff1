#include "record/timer.h"

#include <mpi.h>
#include <time.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define COLLWRAP_HAVE_TSC 1
#endif

#include "record/diagnostics.h"

namespace collwrap::tracer {
namespace {

std::atomic<TimerKind> g_active{TimerKind::Monotonic};

// MPI_Wtime may count from each process's own start (Open MPI does), so ranks' raw values are
// near 0 and a negative clock offset could make a corrected timestamp negative. A fixed base
// (about 18 minutes) keeps every corrected timestamp positive.
constexpr Ticks kWtimeBaseNs = Ticks(1) << 40;

std::int64_t read_clock(clockid_t id) noexcept {
  timespec ts;
  clock_gettime(id, &ts);
  return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

bool invariant_tsc_available() noexcept {
#ifdef COLLWRAP_HAVE_TSC
  try {
    std::ifstream in("/proc/cpuinfo");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return cpuinfo_has_invariant_tsc(text);
  } catch (...) {
    return false;
  }
#else
  return false;
#endif
}

}  // namespace

constinit std::atomic<bool> detail::g_timer_is_tsc{false};

Ticks now_other_timer() noexcept {
  switch (g_active.load(std::memory_order_relaxed)) {
#ifdef COLLWRAP_HAVE_TSC
    case TimerKind::Tsc:
      return __rdtsc();
#endif
    case TimerKind::MpiWtime:
      return kWtimeBaseNs + Ticks(PMPI_Wtime() * 1e9);
    default:
      return Ticks(read_clock(CLOCK_MONOTONIC));
  }
}

namespace timer {

TimerKind select(TimerKind requested) noexcept {
  TimerKind chosen = requested;
  if (requested == TimerKind::Auto || requested == TimerKind::Tsc) {
    chosen = invariant_tsc_available() ? TimerKind::Tsc : TimerKind::Monotonic;
    if (requested == TimerKind::Tsc && chosen != TimerKind::Tsc) {
      print_line("COLLWRAP_TIMER=tsc: this CPU has no invariant TSC; using CLOCK_MONOTONIC");
    }
  }
  g_active.store(chosen, std::memory_order_relaxed);
  detail::g_timer_is_tsc.store(chosen == TimerKind::Tsc, std::memory_order_relaxed);
  return chosen;
}

TimerKind active() noexcept {
  return g_active.load(std::memory_order_relaxed);
}

bool usable_before_mpi_init() noexcept {
  return active() != TimerKind::MpiWtime;
}

std::int64_t monotonic_ns() noexcept {
  return read_clock(CLOCK_MONOTONIC);
}
std::int64_t realtime_ns() noexcept {
  return read_clock(CLOCK_REALTIME);
}

TimerSample sample() noexcept {
  BracketedReading readings[5];
  for (BracketedReading& r : readings) {
    r.before_ns = monotonic_ns();
    r.ticks = now();
    r.after_ns = monotonic_ns();
  }
  return tightest_sample(readings);
}

double resolution(TimerSample earlier, TimerSample later) noexcept {
  if (active() != TimerKind::Tsc) return 1e9;
  return ticks_per_second(earlier, later);
}

}  // namespace timer
}  // namespace collwrap::tracer
