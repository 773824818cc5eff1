// collwrap-timercheck: checks, on the machines of an MPI job, whether the tracer's timer and
// clock offsets can be trusted at the microsecond level. It runs the tracer's own timer and
// synchronization code, then MPIPerf's self-tests:
//   WaitPatternNull: all ranks start at a common global time T and stop at once; the result,
//     max over ranks of (end − T), should be 0.
//   WaitPatternUp: rank i spins until T + (i+1)·U by the global clock; the result should be n·U.
// Late starts (a rank whose global clock runs behind, or the broadcast of T arriving late) and
// a timer whose reads are slow or jumpy show up as deviations. Offsets are also re-measured
// directly against rank 0 (linear ping-pong) right after the synchronization: the difference is
// the residual error of the chosen algorithm.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backend/clock_pair_exchange.h"
#include "backend/clock_sync.h"
#include "backend/timer.h"
#include "backend/timer_math.h"
#include "backend/tracer_config.h"

namespace {

using namespace collwrap::tracer;

// Trusted at the µs level when every figure below stays within this bound.
constexpr double kTrustUs = 1.0;
// Rank 0 announces T this far ahead, so that the broadcast reaches every rank before T.
constexpr double kStartMarginUs = 2000;
// Calibrate a TSC over at least this long before converting ticks to µs.
constexpr std::int64_t kCalibrationNs = 100'000'000;

struct Options {
  ClockSyncKind sync = ClockSyncKind::Auto;
  std::uint32_t patience = 30;
  int repeat = 30;
  double unit_us = 10;
};

void usage(FILE* out) {
  std::fprintf(out,
               "usage: mpirun -np N collwrap-timercheck [--sync auto|linear|ring|tree|off]\n"
               "           [--rounds D] [--repeat R] [--unit U]\n"
               "Synchronizes clocks like the tracer (defaults from COLLWRAP_CLOCKSYNC,\n"
               "COLLWRAP_CLOCKSYNC_ROUNDS and COLLWRAP_TIMER), re-measures the offsets, runs\n"
               "WaitPatternNull and WaitPatternUp (U us per rank, default 10) R times (default\n"
               "30) and says whether timer and offsets can be trusted at the %.0f us level.\n",
               kTrustUs);
}

// Returns false on a usage error.
bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    std::string value = argv[++i];
    char* end = nullptr;
    if (arg == "--sync") {
      auto kind = parse_clocksync_kind(value);
      if (!kind) return false;
      o.sync = *kind;
    } else if (arg == "--rounds") {
      unsigned long n = std::strtoul(value.c_str(), &end, 10);
      if (*end || n < 1 || n > 100000) return false;
      o.patience = std::uint32_t(n);
    } else if (arg == "--repeat") {
      long n = std::strtol(value.c_str(), &end, 10);
      if (*end || n < 1 || n > 100000) return false;
      o.repeat = int(n);
    } else if (arg == "--unit") {
      double u = std::strtod(value.c_str(), &end);
      if (*end || !(u > 0 && u <= 1e6)) return false;
      o.unit_us = u;
    } else {
      return false;
    }
  }
  return true;
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

class Checker {
 public:
  Checker(const Options& o, MPI_Comm comm) : o_(o), comm_(comm) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
  }

  int run() {
    TimerSample calibration_start = timer::sample();
    MPI_Barrier(comm_);
    std::int64_t start_ns = timer::monotonic_ns();
    auto synchronizer = make_clock_synchronizer(o_.sync, o_.patience, size_);
    offset_ = synchronizer->synchronize(comm_).own;
    double sync_ms = double(timer::monotonic_ns() - start_ns) / 1e6, slowest_ms = 0;
    MPI_Reduce(&sync_ms, &slowest_ms, 1, MPI_DOUBLE, MPI_MAX, 0, comm_);
    OffsetEstimate recheck = make_clock_synchronizer(ClockSyncKind::Linear, o_.patience, size_)
                                 ->synchronize(comm_)
                                 .own;
    std::vector<OffsetEstimate> stated = gather_estimates(comm_, offset_);
    std::vector<OffsetEstimate> measured = gather_estimates(comm_, recheck);

    while (timer::monotonic_ns() - calibration_start.monotonic_ns < kCalibrationNs) usleep(1000);
    rate_ = timer::resolution(calibration_start, timer::sample());
    std::vector<double> rates(rank_ == 0 ? std::size_t(size_) : 0);
    MPI_Gather(&rate_, 1, MPI_DOUBLE, rates.data(), 1, MPI_DOUBLE, 0, comm_);

    std::vector<double> null_us, up_us;
    for (int r = 0; r < o_.repeat; ++r) {
      null_us.push_back(run_pattern(0));
      up_us.push_back(run_pattern(o_.unit_us));
    }
    if (rank_ != 0) return 0;
    std::printf("collwrap-timercheck: %d ranks, timer %s at %.0f ticks/s, sync %s (patience %u)\n",
                size_, timer_kind_name(timer::active()), rate_, synchronizer->name(), o_.patience);
    std::printf("sync time: %.3f ms\n", slowest_ms);
    bool trusted = true;
    double worst_residual = 0, worst_stated = 0;
    std::printf("residual offsets (us; sync's offset minus a direct re-measurement):\n");
    for (int r = 0; r < size_; ++r) {
      double residual = us(double(measured[std::size_t(r)].offset - stated[std::size_t(r)].offset));
      double stated_us = us(double(stated[std::size_t(r)].rtt) / 2);
      double recheck_us = us(double(measured[std::size_t(r)].rtt) / 2);
      std::printf("  rank %d: residual %+.3f, stated +-%.3f, re-measured +-%.3f\n", r, residual,
                  stated_us, recheck_us);
      worst_residual = std::max(worst_residual, std::fabs(residual));
      worst_stated = std::max(worst_stated, stated_us);
    }
    trusted &= report("residual offsets", worst_residual, "largest |residual|");
    Stats null = stats(null_us), up = stats(up_us);
    double expected_up = size_ * o_.unit_us;
    std::printf("WaitPatternNull: expected 0.000 us, measured median %.3f min %.3f max %.3f us "
                "over %d runs\n", null.median, null.min, null.max, o_.repeat);
    trusted &= report("WaitPatternNull", std::fabs(null.median), "|median - expected|");
    std::printf("WaitPatternUp: expected %.3f us, measured median %.3f min %.3f max %.3f us "
                "over %d runs\n", expected_up, up.median, up.min, up.max, o_.repeat);
    trusted &= report("WaitPatternUp", std::fabs(up.median - expected_up), "|median - expected|");
    std::vector<int> mismatched = rate_mismatches(rates);
    for (int r : mismatched) {
      std::printf("timer rate: rank %d at %.0f ticks/s, more than %.2f %% off rank 0's %.0f\n", r,
                  rates[std::size_t(r)], kRateMismatchTolerance * 100, rates[0]);
    }
    std::printf("timer rates: %zu of %d ranks more than %.2f %% off rank 0\n", mismatched.size(),
                size_, kRateMismatchTolerance * 100);
    trusted &= mismatched.empty();
    std::printf("summary: sync=%s ranks=%d sync_ms=%.3f max_residual_us=%.3f max_stated_us=%.3f\n",
                synchronizer->name(), size_, slowest_ms, worst_residual, worst_stated);
    std::printf("verdict: timer and offsets %s at the %.0f us level\n",
                trusted ? "can be trusted" : "can NOT be trusted", kTrustUs);
    return 0;
  }

 private:
  double us(double ticks) const { return ticks * 1e6 / rate_; }
  Ticks global_now() const { return Ticks(std::int64_t(now()) + offset_.offset); }

  // One run: rank 0 announces T, rank i spins until T + (i+1)·spin_us by the global clock
  // (spin_us = 0: WaitPatternNull). Returns, on rank 0, max over ranks of (end − T) in µs.
  double run_pattern(double spin_us) {
    std::int64_t start = 0;
    if (rank_ == 0) start = std::int64_t(global_now()) + std::int64_t(kStartMarginUs * rate_ / 1e6);
    MPI_Bcast(&start, 1, MPI_INT64_T, 0, comm_);
    std::int64_t until = start + std::int64_t((rank_ + 1) * spin_us * rate_ / 1e6);
    while (std::int64_t(global_now()) < start) {
    }
    while (std::int64_t(global_now()) < until) {
    }
    std::int64_t elapsed = std::int64_t(global_now()) - start, longest = 0;
    MPI_Reduce(&elapsed, &longest, 1, MPI_INT64_T, MPI_MAX, 0, comm_);
    return us(double(longest));
  }

  static bool report(const char* what, double value_us, const char* measure) {
    bool ok = value_us <= kTrustUs;
    std::printf("check %s: %s %.3f us %s %.0f us\n", what, measure, value_us, ok ? "<=" : ">",
                kTrustUs);
    return ok;
  }

  Options o_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  OffsetEstimate offset_;
  double rate_ = 1e9;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::string> problems;
  TracerConfig config =
      read_config([](const char* name) -> const char* { return std::getenv(name); }, problems);
  Options options{config.clocksync, config.clocksync_rounds};
  bool help = argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0);
  if (help || !parse_options(argc, argv, options) || !problems.empty()) {
    if (rank == 0) {
      for (const std::string& p : problems) std::fprintf(stderr, "%s\n", p.c_str());
      usage(help ? stdout : stderr);
    }
    MPI_Finalize();
    return help ? 0 : 2;
  }
  timer::select(config.timer);
  int status = Checker(options, MPI_COMM_WORLD).run();
  MPI_Finalize();
  return status;
}
