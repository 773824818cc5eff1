// What `collwrap-bench matrix` leaves in its output directory (rank 0 writes it):
//   matrix.json                      the index: parameters, hosts, and the files per length
//   <statistic>_<length>.csv         one N×N matrix: N lines of N comma-separated delays in
//                                    seconds, row = sender rank, column = receiver rank,
//                                    "nan" where nothing was timed (the diagonal)
//   <statistic>_<length>.global.svg  heatmap on the statistic's scale across all lengths
//   <statistic>_<length>.local.svg   heatmap on the matrix's own scale
// network_test wrote one file per statistic holding every length; one file per matrix reads
// directly into spreadsheets and numpy.loadtxt(delimiter=",").
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "matrix_options.h"
#include "matrix_statistics.h"

namespace collwrap::bench {

struct MatrixRun {
  MatrixOptions options;
  int world_size = 0;
  int noise_ranks = 0;                      // per measured pair, noise modes only
  std::vector<std::string> hosts;           // per rank
  std::vector<StatisticMatrices> matrices;  // per options.lengths entry
  double elapsed_s = 0;
};

inline constexpr const char* kMatrixIndexName = "matrix.json";

std::string matrix_file_name(MatrixStatistic statistic, std::size_t length);
std::string heatmap_file_name(MatrixStatistic statistic, std::size_t length, bool global);

// The CSV layout above; values with 9 significant digits.
void write_delay_matrix(const HeatmapMatrix& seconds, std::ostream& out);

// What is timed in `mode`, in words (for the index and --help).
std::string timing_description(MatrixMode mode);

// The index; lists heatmaps only when options.svg is set, per the options' normalization.
nlohmann::ordered_json matrix_index(const MatrixRun& run);

// Writes the CSV files, the heatmaps and last the index into `directory`, which exists. On the
// first file that cannot be written: a "collwrap-bench matrix: cannot write FILE" message on
// stderr and false.
bool write_matrix_run(const MatrixRun& run, const std::string& directory);

}  // namespace collwrap::bench
