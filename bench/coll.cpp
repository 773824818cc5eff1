// collwrap-bench coll: MPIPerf's measurement of collective operations (Kurnosov, "MPIPerf: a
// package for evaluating the efficiency of MPI communication functions"). Clocks are synchronized
// with the tracer's algorithms, runs start at common global times, invalid runs are dropped, and
// each figure comes with its spread and confidence interval. --method barrier and --method naive
// time the same calls the way common benchmarks do, to show their systematic error next to the
// window method's figure.
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "clock/global_clock.h"
#include "record/timer.h"
#include "clock_options.h"
#include "coll_methods.h"
#include "coll_report.h"
#include "output_file.h"
#include "subcommands.h"

namespace collwrap::bench {
namespace {

constexpr const char* kUsage =
    "usage: mpirun -np N collwrap-bench coll [options]\n"
    "Times MPI collectives with synchronized starts (MPIPerf): run l of stage j starts at\n"
    "T_j + l*delta_j by the global clock; late or overrunning runs are invalid; a run's time\n"
    "is the max over ranks. The number of ranks is mpirun's -np.\n"
    "  --op LIST            all | blocking | nonblocking | comma list of: barrier bcast gather\n"
    "                       gatherv scatter scatterv allgather allgatherv alltoall alltoallv\n"
    "                       alltoallw reduce allreduce reduce_scatter reduce_scatter_block scan\n"
    "                       exscan, and each with an i in front (ibcast ...) (default all)\n"
    "  --min B --max B --factor K   message sizes in bytes (default 1, 1048576, 2)\n"
    "  --root R             root of rooted collectives (default 0)\n"
    "  --method M           window | barrier | naive (default window)\n"
    "  --warmup K'          warm-up runs, not counted (default 4)\n"
    "  --stage-runs K       runs per stage (default 8)\n"
    "  --invalid-percent Q  widen the window when more of a stage is invalid (default 25)\n"
    "  --gamma G            window widening factor (default 1.1)\n"
    "  --max-runs N --max-valid N   stop after more runs / valid runs (default 100, 30)\n"
    "  --target-rse E --min-valid N stop once the relative standard error is at most E with\n"
    "                       at least N valid runs (default 0.05, 10)\n"
    "  --trim-percent P     drop P % of the smallest and of the largest times (default 25)\n"
    "  --confidence C       confidence level of the interval (default 0.95)\n"
    "  --iterations I       calls per run of the naive method (default 10)\n"
    "  --per-rank           add each rank's mean time\n"
    "  --json FILE --csv FILE       also write the results there (- is stdout)\n"
    "  --timer T            auto | tsc | monotonic | mpi_wtime (default COLLWRAP_TIMER)\n"
    "  --sync S --rounds D  clock synchronization (default COLLWRAP_CLOCKSYNC, _ROUNDS)\n"
    "  --inject-us U        testing: the last rank waits U us in each run before the call,\n"
    "                       so that the true duration is known\n";

struct Options {
  std::vector<const Collective*> collectives;
  std::vector<std::size_t> sizes;
  int root = 0;
  std::string method;
  CollSettings settings;
  bool per_rank = false;
  std::optional<std::string> json, csv;
  ClockChoice clock;
};

Options read_options(Arguments& args) {
  Options o;
  std::string unknown;
  o.collectives = select_collectives(args.text("op").value_or("all"), unknown);
  if (o.collectives.empty())
    throw UsageError("'--op' names no collective '" + unknown + "'; --help lists them");
  o.sizes = size_series(std::size_t(args.integer("min", 1, 0, 1 << 30)),
                        std::size_t(args.integer("max", 1 << 20, 0, 1 << 30)),
                        std::size_t(args.integer("factor", 2, 2, 1 << 20)));
  o.root = int(args.integer("root", 0, 0, 1 << 24));
  o.method = args.choice("method", "window", {"window", "barrier", "naive"});
  CollSettings& s = o.settings;
  s.method = o.method == "window"    ? CollMethod::Window
             : o.method == "barrier" ? CollMethod::Barrier
                                     : CollMethod::Naive;
  s.window.warmup_runs = int(args.integer("warmup", 4, 1, 1000));
  s.window.runs_per_stage = int(args.integer("stage-runs", 8, 1, 10000));
  s.window.invalid_fraction = args.number("invalid-percent", 25, 0, 100) / 100;
  s.window.gamma = args.number("gamma", 1.1, 1.0001, 2);
  s.stopping.max_runs = int(args.integer("max-runs", 100, 1, 100000000));
  s.stopping.max_valid = int(args.integer("max-valid", 30, 1, 100000000));
  s.stopping.target_rse = args.number("target-rse", 0.05, 0, 1e9);
  s.stopping.min_valid = int(args.integer("min-valid", 10, 1, 100000000));
  s.trim_fraction = args.number("trim-percent", 25, 0, 49.999) / 100;
  s.confidence = args.number("confidence", 0.95, 0.5, 0.9999);
  s.naive_iterations = int(args.integer("iterations", 10, 1, 100000000));
  s.inject_us = args.number("inject-us", 0, 0, 1e7);
  o.per_rank = args.flag("per-rank");
  o.json = args.text("json");
  o.csv = args.text("csv");
  o.clock = read_clock_options(args);
  args.finish();
  return o;
}

int coll_body(Arguments& args) {
  const Options o = read_options(args);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (o.root >= size)
    throw UsageError("'--root " + std::to_string(o.root) + "' is not a rank of " +
                     std::to_string(size) + "; choose 0 to " + std::to_string(size - 1));

  tracer::timer::select(o.clock.timer);
  const tracer::GlobalClock clock(MPI_COMM_WORLD, o.clock.sync, o.clock.patience);
  const std::int64_t lead = stage_start_lead(clock, MPI_COMM_WORLD);
  const CollRunInfo info{o.method,
                         size,
                         o.root,
                         tracer::timer_kind_name(tracer::timer::active()),
                         clock.sync_name(),
                         o.settings.confidence,
                         o.per_rank};
  std::vector<CollRow> rows;
  for (const Collective* collective : o.collectives) {
    if (rank == 0) print_coll_header(stdout, info, *collective);
    // A barrier moves no data: one row, size 0.
    for (std::size_t bytes : moves_data(*collective) ? o.sizes : std::vector<std::size_t>{0}) {
      CollCall call(MPI_COMM_WORLD, o.root, bytes);
      CollRow row{collective, bytes,
                  measure_collective(clock, lead, *collective, call, o.settings)};
      if (rank == 0) print_coll_row(stdout, info, row);
      rows.push_back(std::move(row));
    }
  }
  if (rank != 0) return 0;
  bool written = true;
  if (o.json) written &= write_output_file("coll", *o.json, coll_json(info, rows).dump(2) + "\n");
  if (o.csv) written &= write_output_file("coll", *o.csv, coll_csv(info, rows));
  return written ? 0 : 1;
}

}  // namespace

int run_coll(int argc, char** argv) {
  return run_with_usage("coll", kUsage, coll_body, argc, argv);
}

}  // namespace collwrap::bench
