// The delays one rank timed, per peer, and the N×N matrices of their statistics that rank 0
// assembles from every rank's summaries (report/sample_stats.h does the statistics).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "heatmap_svg.h"

namespace collwrap::bench {

// The statistics network_test writes, plus the maximum (which bounds the mean and shows
// outliers), one matrix each; MatrixStatistic's order is kStatisticNames' order.
enum class MatrixStatistic { Min, Median, Mean, Stddev, Max };
inline constexpr std::size_t kStatisticCount = 5;
inline constexpr std::array<std::string_view, kStatisticCount> kStatisticNames = {
    "min", "median", "mean", "stddev", "max"};

// One matrix per statistic, indexed by MatrixStatistic; cell [sender][receiver] in seconds,
// NaN where nothing was timed (the diagonal).
using StatisticMatrices = std::array<HeatmapMatrix, kStatisticCount>;

// The delays (seconds) this rank timed for one message length, per peer rank.
class PeerSamples {
 public:
  explicit PeerSamples(int world_size) : samples_(std::size_t(world_size)) {}
  void add(int peer, double seconds) { samples_.at(std::size_t(peer)).push_back(seconds); }
  const std::vector<double>& of(int peer) const { return samples_.at(std::size_t(peer)); }
  // kStatisticCount values per peer, peer after peer; NaN for a peer without samples. This is
  // what each rank sends to rank 0.
  std::vector<double> summaries() const;

 private:
  std::vector<std::vector<double>> samples_;
};

// Rank 0's view: `gathered` holds every rank's summaries() one rank after the other. The rank
// that timed a cell is its receiver when `receiver_timed`, else its sender.
StatisticMatrices assemble_matrices(std::span<const double> gathered, int world_size,
                                    bool receiver_timed);

// The cells with data (finite), row after row: e.g. to summarize a matrix in one line.
std::vector<double> finite_cells(const HeatmapMatrix& matrix);

}  // namespace collwrap::bench
