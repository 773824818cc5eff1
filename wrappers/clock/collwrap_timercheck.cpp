// collwrap-timercheck: checks, on the machines of an MPI job, whether the tracer's timer and
// clock offsets can be trusted at the microsecond level, with MPIPerf's self-tests
// (backend/timer_check.h). `collwrap-bench timer` runs the same check.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "clock/timer_check.h"
#include "clock/timer_check_verdict.h"
#include "record/timer.h"
#include "record/tracer_config.h"

namespace {

using namespace collwrap::tracer;

void usage(FILE* out) {
  std::fprintf(out,
               "usage: mpirun -np N collwrap-timercheck [--sync auto|linear|ring|tree|off]\n"
               "           [--rounds D] [--repeat R] [--unit U]\n"
               "Synchronizes clocks like the tracer (defaults from COLLWRAP_CLOCKSYNC,\n"
               "COLLWRAP_CLOCKSYNC_ROUNDS and COLLWRAP_TIMER), re-measures the offsets, runs\n"
               "WaitPatternNull and WaitPatternUp (U us per rank, default 10) R times (default\n"
               "30) and says whether timer and offsets can be trusted at the %.0f us level.\n",
               kTimerTrustUs);
}

// Returns false on a usage error.
bool parse_options(int argc, char** argv, TimerCheckOptions& o) {
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

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::string> problems;
  TracerConfig config =
      read_config([](const char* name) -> const char* { return std::getenv(name); }, problems);
  TimerCheckOptions options{config.clocksync, config.clocksync_rounds};
  bool help = argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0);
  if (help || !parse_options(argc, argv, options) || !problems.empty()) {
    if (rank == 0) {
      for (const std::string& p : problems)
        std::fprintf(stderr, "collwrap-timercheck: %s\n", p.c_str());
      if (!help && problems.empty())
        std::fprintf(stderr, "collwrap-timercheck: unknown option or bad value; use these:\n");
      usage(help ? stdout : stderr);
    }
    MPI_Finalize();
    return help ? 0 : 2;
  }
  timer::select(config.timer);
  int status = run_timer_check("collwrap-timercheck", options, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
