// collwrap-bench matrix: network_test's pairwise delay matrices. For each message length, every
// rank pair is timed `--repeats` times in the chosen mode; rank 0 gathers the per-pair
// statistics and writes N×N matrices (CSV), an index (matrix.json) and heatmaps (SVG).
#include <mpi.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "record/trace_directory.h"
#include "matrix_exchange.h"
#include "matrix_options.h"
#include "matrix_output.h"
#include "matrix_schedule.h"
#include "matrix_statistics.h"
#include "sample_stats.h"
#include "subcommands.h"

namespace collwrap::bench {
namespace {

constexpr const char* kUsage =
    "usage: mpirun -np N collwrap-bench matrix [options]\n"
    "For each message length, N x N matrices of the min, median, mean, stddev and max of the\n"
    "delay from each sender rank (row) to each receiver rank (column), as CSV files with an\n"
    "index (matrix.json) and SVG heatmaps (network_test's modes).\n"
    "  --mode M             one_to_one (default), all_to_all, send_recv_and_recv_send,\n"
    "                       async_one_to_one, noise_blocking, noise\n"
    "  --begin B --end E    message lengths in bytes, B to E inclusive (default 0 and 10000)\n"
    "  --step S             arithmetic step between lengths (default 1000), or\n"
    "  --factor F           lengths B, B*F, B*F^2, ... (a B of 0 is followed by 1)\n"
    "  --repeats R          timed exchanges per pair and length (default 100)\n"
    "  --noise-ranks K      noise modes: ranks exchanging in the background of each measured\n"
    "                       pair, drawn at random per pair\n"
    "  --noise-fraction F   or the fraction of the ranks outside the pair (default 1; at least\n"
    "                       2 ranks when possible, since noise ranks exchange among themselves)\n"
    "  --noise-messages M   messages each noise rank sends each other noise rank per pair\n"
    "                       (default: the --repeats value)\n"
    "  --noise-length L     bytes per noise message (default 65536)\n"
    "  --seed S             seed of the noise-rank draws (default 1)\n"
    "  --output DIR         output directory (default: new collwrap-matrix-<date>-<time>)\n"
    "  --heatmaps none|svg  heatmap of every matrix (default svg)\n"
    "  --normalization global|local|both\n"
    "                       colour scale shared by all lengths of a statistic (global), per\n"
    "                       matrix (local), or both sets of files (default both)\n";

constexpr const char* kPrefix = "collwrap-bench matrix: ";

// Rank 0 creates the output directory; every rank learns whether that worked.
bool prepare_output(std::string& directory, int rank) {
  int ok = 1;
  if (rank == 0) {
    if (directory.empty()) {
      const std::time_t now = std::time(nullptr);
      std::tm local{};
      localtime_r(&now, &local);
      directory = tracer::first_unused_name(
          tracer::default_archive_dirname("matrix", local),
          [](const std::string& p) { return std::filesystem::exists(p); });
    }
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec || !std::filesystem::is_directory(directory)) {
      std::fprintf(stderr, "%scannot create directory '%s' (%s); choose another --output\n",
                   kPrefix, directory.c_str(), ec ? ec.message().c_str() : "not a directory");
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok != 0;
}

std::vector<std::string> gather_hosts(int rank, int world_size) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<char> all(rank == 0 ? std::size_t(world_size) * MPI_MAX_PROCESSOR_NAME : 0);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
             0, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (int r = 0; rank == 0 && r < world_size; ++r)
    hosts.emplace_back(all.data() + std::size_t(r) * MPI_MAX_PROCESSOR_NAME);
  return hosts;
}

// "  1024 B: median delay 1.23 us (cells 1.01 .. 1.5 us), 830 MB/s": the mean and extremes of
// the median matrix's cells, and the length over that mean (from 1 KiB on; below, latency
// dominates and a rate says nothing).
void print_length_line(std::size_t length, const StatisticMatrices& m) {
  const SampleSummary cells = summarize(finite_cells(m[std::size_t(MatrixStatistic::Median)]));
  std::printf("  %9zu B: median delay %.3g us (cells %.3g .. %.3g us)", length, cells.mean * 1e6,
              cells.min * 1e6, cells.max * 1e6);
  if (length >= 1024 && cells.mean > 0)
    std::printf(", %.0f MB/s", double(length) / cells.mean / 1e6);
  std::printf("\n");
  std::fflush(stdout);
}

int run(Arguments& args) {
  int rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MatrixRun result;
  result.options = parse_matrix_options(args);
  const MatrixOptions& options = result.options;
  if (world_size < 2) throw UsageError("needs at least 2 ranks; run it with mpirun -np 2 or more");
  result.world_size = world_size;
  result.noise_ranks = has_noise(options.mode) ? noise_rank_count(options, world_size) : 0;

  std::string directory = options.output;
  if (!prepare_output(directory, rank)) return 1;
  result.hosts = gather_hosts(rank, world_size);
  if (rank == 0) {
    std::printf("collwrap-bench matrix: %s on %d ranks, %zu message length%s, %d repeats\n",
                std::string(mode_name(options.mode)).c_str(), world_size, options.lengths.size(),
                options.lengths.size() == 1 ? "" : "s", options.repeats);
    if (has_noise(options.mode))
      std::printf(
          "  noise: %d noise ranks per pair (seed %llu), %d messages of %zu B per partner%s\n",
          result.noise_ranks, static_cast<unsigned long long>(options.seed), options.noise_messages,
          options.noise_length,
          result.noise_ranks < 2 ? " (fewer than 2 noise ranks: no noise traffic)" : "");
    std::fflush(stdout);
  }

  NoiseRankChooser chooser(options.seed);
  const double start = MPI_Wtime();
  for (std::size_t length : options.lengths) {
    const std::vector<double> mine =
        measure_length(options, length, result.noise_ranks, chooser, MPI_COMM_WORLD).summaries();
    std::vector<double> gathered(rank == 0 ? mine.size() * std::size_t(world_size) : 0);
    MPI_Gather(mine.data(), int(mine.size()), MPI_DOUBLE, gathered.data(), int(mine.size()),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank != 0) continue;
    result.matrices.push_back(
        assemble_matrices(gathered, world_size, receiver_times(options.mode)));
    print_length_line(length, result.matrices.back());
  }
  result.elapsed_s = MPI_Wtime() - start;
  if (rank != 0) return 0;
  if (!write_matrix_run(result, directory)) return 1;
  std::printf("wrote %s/%s and its matrices (%.2f s of measurement)\n", directory.c_str(),
              kMatrixIndexName, result.elapsed_s);
  return 0;
}

}  // namespace

int run_matrix(int argc, char** argv) {
  return run_with_usage("matrix", kUsage, run, argc, argv);
}

}  // namespace collwrap::bench
