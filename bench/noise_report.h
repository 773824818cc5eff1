// collwrap-bench noise's analysis of a noise record: the band metrics over p processes, and
// for each grain length the efficiency by formula (1), formula (2) and the simulator
// (noise_prediction.h); then the same as a table and as JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include "noise_bands.h"
#include "noise_file.h"
#include "sample_stats.h"

namespace collwrap::noise {

// The simulator runs this many runs of k grains through the record (k = T / (runs · t), fewer
// when noise stretches the runs beyond the record).
inline constexpr std::size_t kSimulatedRuns = 10;

struct NoiseAnalysisOptions {
  std::vector<double> upper_edges_s = default_upper_edges_s();
  std::vector<double> grains_s = {10e-6, 100e-6, 1e-3, 10e-3};
  std::size_t processes = 0;  // p; 0: every rank of the record
};

struct GrainPrediction {
  double grain_s = 0;
  // Formula (1) and the simulator need the noise of p ranks: unset when p exceeds the record.
  std::optional<double> formula1;
  double formula2 = 0;
  std::size_t grains_per_run = 0;        // k
  std::vector<double> simulated_time_s;  // T_p of each simulated run
  SampleSummary simulated_efficiency;    // of k·t / T_p over the runs; n = 0: none fitted
};

struct NoiseAnalysis {
  std::size_t processes = 0;         // p of the predictions
  std::size_t metric_processes = 0;  // ranks the band metrics cover: min(p, ranks)
  std::vector<BandMetrics> bands;    // every band, empty ones included
  BandMetrics integral;              // all bursts: the integral C and S
  // The integral C_p and S_p over the first p ranks, p = 1, 2, 4, … and every rank: how the
  // noise grows with the number of processes.
  std::vector<std::pair<std::size_t, BandMetrics>> integral_by_processes;
  std::vector<GrainPrediction> predictions;
};

NoiseAnalysis analyze_noise(const NoiseRecord& record, const NoiseAnalysisOptions& options);

void write_noise_table(const NoiseRecord& record, const NoiseAnalysis& analysis, std::ostream& out);

nlohmann::ordered_json noise_analysis_json(const NoiseRecord& record,
                                           const NoiseAnalysis& analysis);

}  // namespace collwrap::noise
