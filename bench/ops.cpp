// collwrap-bench ops: MPITEST's table of basic MPI operation times (the MPITEST description,
// "Efficiency test of the basic MPI operations"). Each figure is barrier, t1, operation, barrier,
// t2, corrected by the clock-read and barrier costs (ops_correction.h), averaged over T iterations
// (t for quick operations), and the whole test repeats R times.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "clock/global_clock.h"
#include "record/timer.h"
#include "clock_options.h"
#include "ops_correction.h"
#include "ops_operations.h"
#include "ops_report.h"
#include "output_file.h"
#include "subcommands.h"

namespace collwrap::bench {
namespace {

using tracer::GlobalClock;

constexpr const char* kUsage =
    "usage: mpirun -np N collwrap-bench ops [options]\n"
    "Times TIMING, BARRIER, ALLREDUCE, REDUCE, BROADCAST, GATHER, ALLGATHER, ALL-TO-ALL,\n"
    "ISEND&WAIT, BLOCKING SEND, SENDRECV, SEND&RECV and SIGNAL (MPITEST). Each figure is\n"
    "t = t2 - t1 - DT - DB (DT: one clock read, DB: one barrier), averaged over the\n"
    "iterations; point-to-point operations run between ranks 0 and 1.\n"
    "  --min m --max M --factor K   message lengths in integers (default 1, 10000, 10)\n"
    "  --repeat R            repeats of the whole test (default 2)\n"
    "  --iterations T        iterations of long operations (default 100)\n"
    "  --short-iterations t  iterations of quick ones: TIMING, BARRIER, SIGNAL (default 10000)\n"
    "  --buffer b            bytes per message buffer (default 16777216)\n"
    "  --output FILE         print the table there instead of on the terminal\n"
    "  --json FILE --csv FILE  also write the results there (- is stdout)\n"
    "  --timer T             auto | tsc | monotonic | mpi_wtime (default COLLWRAP_TIMER)\n";

struct Options {
  std::vector<std::size_t> sizes;
  int repeats = 2, iterations = 100, short_iterations = 10000;
  std::size_t buffer_bytes = 16u << 20;
  std::optional<std::string> output, json, csv;
  ClockChoice clock;
};

Options read_options(Arguments& args) {
  Options o;
  o.sizes = size_series(std::size_t(args.integer("min", 1, 0, 1 << 28)),
                        std::size_t(args.integer("max", 10000, 0, 1 << 28)),
                        std::size_t(args.integer("factor", 10, 2, 1 << 20)));
  o.repeats = int(args.integer("repeat", o.repeats, 1, 1000000));
  o.iterations = int(args.integer("iterations", o.iterations, 1, 1000000000));
  o.short_iterations = int(args.integer("short-iterations", o.short_iterations, 1, 1000000000));
  o.buffer_bytes = std::size_t(args.integer("buffer", 16 << 20, 0, 1ll << 40));
  o.output = args.text("output");
  o.json = args.text("json");
  o.csv = args.text("csv");
  o.clock = read_clock_options(args, false);
  args.finish();
  return o;
}

// DT: the mean cost of one clock read.
double clock_read_us(const GlobalClock& clock, int iterations) {
  double sum = 0;
  for (int i = 0; i < iterations; ++i) {
    const std::int64_t t1 = clock.now();
    const std::int64_t t2 = clock.now();
    sum += clock_read_cost(0, clock.microseconds(t2 - t1));
  }
  return sum / iterations;
}

// DB: the mean cost of a barrier, DT removed.
double barrier_us(const GlobalClock& clock, MPI_Comm comm, int iterations, double dt) {
  double sum = 0;
  for (int i = 0; i < iterations; ++i) {
    MPI_Barrier(comm);
    const std::int64_t t1 = clock.now();
    MPI_Barrier(comm);
    const std::int64_t t2 = clock.now();
    sum += barrier_cost(0, clock.microseconds(t2 - t1), dt);
  }
  return sum / iterations;
}

// The operation's corrected time, averaged over the iterations (rank 0's clock).
double operation_us(const GlobalClock& clock, const OpsOperation& op, const OpsCall& call,
                    int iterations, double dt, double db) {
  double sum = 0;
  for (int i = 0; i < iterations; ++i) {
    MPI_Barrier(call.comm);
    const std::int64_t t1 = clock.now();
    op.run(call);
    MPI_Barrier(call.comm);
    const std::int64_t t2 = clock.now();
    sum += corrected_time(0, clock.microseconds(t2 - t1), dt, db);
  }
  return sum / iterations;
}

int ops_body(Arguments& args) {
  const Options o = read_options(args);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::size_t buffer_ints = 1;
  for (const OpsOperation& op : ops_operations())
    buffer_ints = std::max(buffer_ints, ops_buffer_ints(op, op.sized ? o.sizes.back() : 0, size));
  if (buffer_ints * sizeof(int) > o.buffer_bytes)
    throw UsageError("messages of " + std::to_string(o.sizes.back()) + " integers on " +
                     std::to_string(size) + " ranks need " +
                     std::to_string(buffer_ints * sizeof(int)) +
                     " bytes of buffer; raise '--buffer' or lower '--max'");

  tracer::timer::select(o.clock.timer);
  // Only local time differences are taken: no synchronization, just the timer's rate.
  const GlobalClock clock(MPI_COMM_WORLD, tracer::ClockSyncKind::Off, o.clock.patience);
  std::vector<int> send(buffer_ints, 1), recv(buffer_ints, 0);

  // Rows in table order; per row, one average per repeat.
  std::vector<OpsRow> rows;
  for (const OpsOperation& op : ops_operations()) {
    if (op.pairwise && size < 2) continue;
    for (std::size_t n : op.sized ? o.sizes : std::vector<std::size_t>{0})
      rows.push_back({op.name, op.sized, n, {}});
  }
  std::vector<std::vector<double>> samples(rows.size());
  std::vector<double> clock_reads, barriers;
  for (int r = 0; r < o.repeats; ++r) {
    const double dt = clock_read_us(clock, o.short_iterations);
    const double db = barrier_us(clock, MPI_COMM_WORLD, o.short_iterations, dt);
    clock_reads.push_back(dt);
    barriers.push_back(db);
    std::size_t row = 0;
    for (const OpsOperation& op : ops_operations()) {
      if (op.pairwise && size < 2) continue;
      const int iterations = op.short_op ? o.short_iterations : o.iterations;
      for (std::size_t n : op.sized ? o.sizes : std::vector<std::size_t>{0}) {
        const OpsCall call{MPI_COMM_WORLD, rank, size, int(n), send.data(), recv.data()};
        samples[row++].push_back(op.run ? operation_us(clock, op, call, iterations, dt, db) : dt);
      }
    }
  }
  if (rank != 0) return 0;
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].figure = combine_repeats(samples[i]);
  const OpsRunInfo info{size,
                        tracer::timer_kind_name(tracer::timer::active()),
                        o.repeats,
                        o.iterations,
                        o.short_iterations,
                        combine_repeats(clock_reads),
                        combine_repeats(barriers)};
  bool written = write_output_file("ops", o.output.value_or("-"), ops_table(info, rows));
  if (size < 2)
    std::fprintf(stderr,
                 "collwrap-bench ops: point-to-point operations need 2 ranks; run with "
                 "mpirun -np 2 or more to time them\n");
  if (o.json) written &= write_output_file("ops", *o.json, ops_json(info, rows).dump(2) + "\n");
  if (o.csv) written &= write_output_file("ops", *o.csv, ops_csv(rows));
  return written ? 0 : 1;
}

}  // namespace

int run_ops(int argc, char** argv) {
  return run_with_usage("ops", kUsage, ops_body, argc, argv);
}

}  // namespace collwrap::bench
