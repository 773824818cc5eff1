// collwrap-bench timer: MPIPerf's timer self-tests (WaitPatternNull, WaitPatternUp) on the
// tracer's timer and clock synchronization; the same check as collwrap-timercheck.
#include "record/timer.h"

#include <optional>
#include <string>

#include "clock/timer_check.h"
#include "clock_options.h"
#include "output_file.h"
#include "subcommands.h"
#include "timer_report.h"

namespace collwrap::bench {
namespace {

constexpr const char* kUsage =
    "usage: mpirun -np N collwrap-bench timer [--timer auto|tsc|monotonic|mpi_wtime]\n"
    "           [--sync auto|linear|ring|tree|off] [--rounds D] [--repeat R] [--unit U]\n"
    "           [--json FILE]\n"
    "Synchronizes clocks like the tracer (defaults from COLLWRAP_TIMER, COLLWRAP_CLOCKSYNC and\n"
    "COLLWRAP_CLOCKSYNC_ROUNDS), re-measures the offsets, runs WaitPatternNull (expected 0 us)\n"
    "and WaitPatternUp (rank i spins (i+1)*U us, expected N*U; U default 10) R times (default\n"
    "30) and says whether timer and offsets can be trusted at the 1 us level. --json FILE\n"
    "also writes every figure and run there (- is stdout).\n";

int timer_body(Arguments& args) {
  const ClockChoice clock = read_clock_options(args);
  tracer::TimerCheckOptions o{clock.sync, clock.patience};
  o.repeat = int(args.integer("repeat", o.repeat, 1, 100000));
  o.unit_us = args.number("unit", o.unit_us, 1e-3, 1e6);
  const std::optional<std::string> json = args.text("json");
  args.finish();
  tracer::timer::select(clock.timer);
  tracer::TimerCheckOutcome outcome;
  const int status = tracer::run_timer_check("collwrap-bench timer", o, MPI_COMM_WORLD, &outcome);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (status != 0 || !json || rank != 0) return status;
  return write_output_file("timer", *json, timer_json(outcome, o.unit_us).dump(2) + "\n") ? 0 : 1;
}

}  // namespace

int run_timer(int argc, char** argv) {
  return run_with_usage("timer", kUsage, timer_body, argc, argv);
}

}  // namespace collwrap::bench
