// collwrap-bench noise: NoM's noise collector and analysis (Bartenev et al., RFNC-VNIIEF, "Tools
// for studying the instability of multiprocessor systems"). Every rank times a fixed work quantum
// of a few µs back to back, without communicating, for the same stretch of synchronized global
// time; a quantum slower than the fastest one by more than a threshold was interrupted (a burst).
// Rank 0 gathers the bursts and analyzes them (noise_report.h); --save keeps them in a noise file
// that --load (and `analyzer --noise`) read back.
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "arguments.h"
#include "clock/global_clock.h"
#include "record/timer.h"
#include "clock_options.h"
#include "noise_bursts.h"
#include "noise_file.h"
#include "noise_report.h"
#include "subcommands.h"

namespace collwrap::bench {
namespace {

using tracer::GlobalClock;

constexpr const char* kUsage =
    "usage: mpirun -np N collwrap-bench noise [--duration S] [--quantum US] [--threshold US]\n"
    "           [--bands LIST] [--grain LIST] [--processes P] [--save FILE] [--json FILE]\n"
    "           [--timer KIND] [--sync KIND] [--rounds D]\n"
    "       collwrap-bench noise --load FILE [--bands LIST] [--grain LIST] [--processes P]\n"
    "           [--json FILE]\n"
    "Collects OS noise (NoM): every rank times a fixed work quantum back to back for the same\n"
    "stretch of synchronized time; a quantum slower than the fastest by more than the threshold\n"
    "is a burst. The bursts are split into bands by duration, each with its mean duration d_j,\n"
    "mean gap g_j, coverage C_j,p and synchronicity S_j,p (1: all ranks at once, 1/p: never two),\n"
    "and the efficiency of a program of grains that end in a synchronization of p ranks is\n"
    "predicted by formula (1), formula (2) and by replaying the bursts (simulation).\n"
    "  --duration S     seconds of collection (default 10; NoM suggests an hour)\n"
    "  --quantum US     work quantum in microseconds (default 5)\n"
    "  --threshold US   smallest burst in microseconds (default 1)\n"
    "  --bands LIST     upper band edges in microseconds (default 10,100,1000,10000)\n"
    "  --grain LIST     grain lengths in microseconds to predict for (default 10,100,1000,10000)\n"
    "  --processes P    p of the predictions (default: the ranks of the collection)\n"
    "  --save FILE      write the noise file (bursts of every rank, JSON)\n"
    "  --load FILE      analyze a noise file instead of measuring (any number of ranks)\n"
    "  --json FILE      write the analysis as JSON ('-' = standard output)\n"
    "  --timer, --sync, --rounds   the clock, default as the tracer's (COLLWRAP_TIMER,\n"
    "                   COLLWRAP_CLOCKSYNC, COLLWRAP_CLOCKSYNC_ROUNDS)\n";

// The collection starts this long after rank 0 announces it, so the announcement arrives in
// time; until then every rank times quanta to settle the fastest one.
constexpr double kStartMarginUs = 200'000;
constexpr std::size_t kHostNameBytes = MPI_MAX_PROCESSOR_NAME;

// The work's result goes here, so that the compiler cannot leave the work out.
volatile std::uint64_t g_work_result = 0;

struct Options {
  double duration_s = 10;
  double quantum_s = 5e-6;
  double threshold_s = 1e-6;
  std::optional<std::string> save, load, json;
  noise::NoiseAnalysisOptions analysis;
  ClockChoice clock;
};

// "10,100,1000" → seconds; each value in (0, 1e9] µs.
std::vector<double> microsecond_list(Arguments& args, const char* name,
                                     std::vector<double> fallback) {
  const auto text = args.text(name);
  if (!text) return fallback;
  std::vector<double> values;
  const char* p = text->c_str();
  for (;;) {
    char* end = nullptr;
    errno = 0;
    const double us = std::strtod(p, &end);
    if (end == p || errno || !(us > 0 && us <= 1e9) || (*end != ',' && *end != '\0'))
      throw UsageError(std::string("'--") + name +
                       "' takes positive microseconds separated by commas, not '" + *text + "'");
    values.push_back(us * 1e-6);
    if (*end == '\0') return values;
    p = end + 1;
  }
}

Options read_options(Arguments& args) {
  Options o;
  o.load = args.text("load");
  o.save = args.text("save");
  o.json = args.text("json");
  if (!o.load) {
    o.duration_s = args.number("duration", o.duration_s, 0.01, 1e6);
    o.quantum_s = args.number("quantum", o.quantum_s * 1e6, 0.1, 1e5) * 1e-6;
    o.threshold_s = args.number("threshold", o.threshold_s * 1e6, 0.001, 1e6) * 1e-6;
    o.clock = read_clock_options(args);
  } else if (o.save) {
    throw UsageError("'--save' and '--load' exclude each other; --load reads a saved file");
  } else {
    for (const char* measuring : {"duration", "quantum", "threshold", "timer", "sync", "rounds"})
      if (args.text(measuring))
        throw UsageError(std::string("'--") + measuring +
                         "' sets up a measurement; --load analyzes a saved one, leave it out");
  }
  o.analysis.upper_edges_s = microsecond_list(args, "bands", o.analysis.upper_edges_s);
  o.analysis.grains_s = microsecond_list(args, "grain", o.analysis.grains_s);
  o.analysis.processes = std::size_t(args.integer("processes", 0, 1, 1'000'000));
  args.finish();
  return o;
}

// The quantum's work: a chain of dependent multiply-adds, which runs from registers at the
// same speed whatever the memory does.
std::uint64_t work(std::uint64_t iterations, std::uint64_t x) {
  for (std::uint64_t i = 0; i < iterations; ++i)
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  return x;
}

// Iterations of work() that take `quantum_s` on this rank (the fastest of several tries).
std::uint64_t calibrate(const GlobalClock& clock, double quantum_s, std::uint64_t& sink) {
  constexpr std::uint64_t kProbe = 10'000;
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (int i = 0; i < 50; ++i) {
    const std::int64_t start = clock.now();
    sink = work(kProbe, sink);
    best = std::min(best, clock.now() - start);
  }
  const double per_iteration_s = clock.seconds(std::max<std::int64_t>(best, 1)) / kProbe;
  return std::max<std::uint64_t>(1, std::uint64_t(quantum_s / per_iteration_s));
}

// Times quanta from the common start for `duration_s` of global time.
noise::DetectedBursts collect(const GlobalClock& clock, const Options& o, std::uint64_t iterations,
                              std::uint64_t& sink) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::int64_t start = 0;
  if (rank == 0) start = clock.now() + clock.ticks(kStartMarginUs);
  MPI_Bcast(&start, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  const std::int64_t end = start + clock.ticks(o.duration_s * 1e6);
  noise::BurstDetector detector(clock.ticks(o.threshold_s * 1e6));
  std::int64_t before = clock.now();
  while (before < start) {  // warm-up: find the fastest quantum
    sink = work(iterations, sink);
    const std::int64_t after = clock.now();
    detector.observe(after - before);
    before = after;
  }
  before = clock.now();
  while (before < end) {
    sink = work(iterations, sink);
    const std::int64_t after = clock.now();
    detector.add(before, after - before);
    before = after;
  }
  return detector.finish(start, clock.rate());
}

// Rank 0 receives every rank's bursts and host name.
noise::NoiseRecord gather(const noise::DetectedBursts& mine, int size) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char host[kHostNameBytes] = {};
  int host_length = 0;
  MPI_Get_processor_name(host, &host_length);
  std::vector<char> hosts(rank == 0 ? kHostNameBytes * std::size_t(size) : 0);
  MPI_Gather(host, int(kHostNameBytes), MPI_CHAR, hosts.data(), int(kHostNameBytes), MPI_CHAR, 0,
             MPI_COMM_WORLD);
  const double header[3] = {double(mine.quanta), mine.min_quantum_s, double(mine.bursts.size())};
  std::vector<double> headers(rank == 0 ? 3 * std::size_t(size) : 0);
  MPI_Gather(header, 3, MPI_DOUBLE, headers.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<double> flat;  // start, duration, start, …
  for (const noise::Burst& b : mine.bursts) flat.insert(flat.end(), {b.start_s, b.duration_s});
  std::vector<int> counts(static_cast<std::size_t>(size)), displacements(counts.size());
  int total = 0;
  if (rank == 0)
    for (int r = 0; r < size; ++r) {
      counts[std::size_t(r)] = 2 * int(headers[3 * std::size_t(r) + 2]);
      displacements[std::size_t(r)] = total;
      total += counts[std::size_t(r)];
    }
  std::vector<double> all(static_cast<std::size_t>(total));
  MPI_Gatherv(flat.data(), int(flat.size()), MPI_DOUBLE, all.data(), counts.data(),
              displacements.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  noise::NoiseRecord record;
  if (rank != 0) return record;
  for (int r = 0; r < size; ++r) {
    const std::size_t i = std::size_t(r);
    noise::RankRecord rr;
    rr.host = std::string(&hosts[i * kHostNameBytes]);
    rr.quanta = std::uint64_t(headers[3 * i]);
    rr.min_quantum_s = headers[3 * i + 1];
    for (int k = 0; k < counts[i]; k += 2)
      rr.bursts.push_back(
          {all[std::size_t(displacements[i] + k)], all[std::size_t(displacements[i] + k + 1)]});
    record.ranks.push_back(std::move(rr));
  }
  return record;
}

noise::NoiseRecord measure(const Options& o) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tracer::timer::select(o.clock.timer);
  const GlobalClock clock(MPI_COMM_WORLD, o.clock.sync, o.clock.patience);
  std::uint64_t sink = 1, iterations = calibrate(clock, o.quantum_s, sink);
  // Every rank does the same work: rank 0's calibration.
  MPI_Bcast(&iterations, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  noise::NoiseRecord record = gather(collect(clock, o, iterations, sink), size);
  record.timer = tracer::timer_kind_name(tracer::timer::active());
  record.clock_sync = clock.sync_name();
  record.quantum_iterations = iterations;
  record.duration_s = o.duration_s;
  record.threshold_s = o.threshold_s;
  record.quantum_s = std::numeric_limits<double>::max();
  for (const noise::RankRecord& r : record.ranks)
    record.quantum_s = std::min(record.quantum_s, r.min_quantum_s);
  g_work_result = sink;
  return record;
}

// Rank 0: table, --json and --save. Returns the exit status.
int report(const noise::NoiseRecord& record, const Options& o) {
  const noise::NoiseAnalysis analysis = noise::analyze_noise(record, o.analysis);
  std::ostream& table = o.json == "-" ? std::cerr : std::cout;
  noise::write_noise_table(record, analysis, table);
  if (o.save) {
    try {
      noise::write_noise_file(*o.save, record, o.analysis.upper_edges_s);
    } catch (const noise::NoiseFileError& e) {
      std::fprintf(stderr,
                   "collwrap-bench noise: cannot write the noise file '%s': %s; choose a "
                   "writable path\n",
                   o.save->c_str(), e.what());
      return 1;
    }
  }
  if (o.json) {
    const std::string text = noise::noise_analysis_json(record, analysis).dump(2) + "\n";
    if (*o.json == "-") {
      std::cout << text << std::flush;
    } else {
      std::ofstream out(*o.json);
      out << text;
      out.close();
      if (!out) {
        std::fprintf(stderr, "collwrap-bench noise: cannot write '%s'; choose a writable path\n",
                     o.json->c_str());
        return 1;
      }
    }
  }
  return 0;
}

int run(Arguments& args) {
  const Options o = read_options(args);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (o.load) {
    if (rank != 0) return 0;
    try {
      return report(noise::read_noise_file(*o.load), o);
    } catch (const noise::NoiseFileError& e) {
      std::fprintf(stderr,
                   "collwrap-bench noise: cannot read the noise file '%s': %s; give a "
                   "file written by 'collwrap-bench noise --save'\n",
                   o.load->c_str(), e.what());
      return 2;
    }
  }
  const noise::NoiseRecord record = measure(o);
  return rank == 0 ? report(record, o) : 0;
}

}  // namespace

int run_noise(int argc, char** argv) {
  return run_with_usage("noise", kUsage, run, argc, argv);
}

}  // namespace collwrap::bench
