#include "compute_grains.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "json_report.h"
#include "noise_prediction.h"
#include "terminal_summary.h"
#include "trace_builder.h"

namespace collwrap {
namespace {

// Rank 0: calls 0..1, 6..7 and 57..58 µs, so grains of 5 and 50 µs; rank 1: two calls back to
// back (a grain of 0) and one 2 s later; rank 2: one call, no grain.
Trace grain_trace() {
  TraceBuilder b(3);
  b.call(0, "MPI_Barrier", 0, 1'000);
  b.call(0, "MPI_Barrier", 6'000, 7'000);
  b.call(0, "MPI_Barrier", 57'000, 58'000);
  b.call(1, "MPI_Barrier", 0, 1'000);
  b.call(1, "MPI_Barrier", 1'000, 2'000);
  b.call(1, "MPI_Barrier", 2'000'002'000, 2'000'003'000);
  b.call(2, "MPI_Barrier", 0, 58'000);
  return b.finish();
}

TEST(ComputeGrains, DistributionPerLocation) {
  const std::vector<GrainDistribution> grains = compute_grains(grain_trace());
  ASSERT_EQ(grains.size(), 2u);  // rank 2 has no grain
  const GrainDistribution& r0 = grains[0];
  EXPECT_EQ(r0.rank, 0);
  EXPECT_EQ(r0.count, 2u);
  EXPECT_NEAR(r0.total_s, 55e-6, 1e-15);
  EXPECT_NEAR(r0.min_s, 5e-6, 1e-15);
  EXPECT_NEAR(r0.max_s, 50e-6, 1e-15);
  EXPECT_NEAR(r0.median_s, 27.5e-6, 1e-15);
  ASSERT_EQ(r0.histogram.size(), 9u);
  EXPECT_EQ(r0.histogram[1].count, 1u);  // [1 µs, 10 µs)
  EXPECT_EQ(r0.histogram[2].count, 1u);  // [10 µs, 100 µs)
  EXPECT_NEAR(r0.histogram[2].total_s, 50e-6, 1e-15);
  const GrainDistribution& r1 = grains[1];
  EXPECT_EQ(r1.rank, 1);
  EXPECT_EQ(r1.histogram[0].count, 1u);  // the grain of 0 in [0, 1 µs)
  EXPECT_EQ(r1.histogram[7].count, 1u);  // 2 s in [1 s, 10 s)
  EXPECT_DOUBLE_EQ(r1.histogram[7].low_s, 1);
  EXPECT_FALSE(r1.histogram[8].high_s.has_value());
  EXPECT_EQ(grain_histogram(std::vector<double>{10.0, 1e-6})[8].count, 1u);  // lower edges belong
}

TEST(ComputeGrains, ObservedWaitingCountsEachWaitOnce) {
  Summary s;
  s.patterns = {{"late_sender", "", 1, 1, 1.0, 0},
                {"wrong_order", "", 1, 1, 0.5, 0},
                {"early_wait", "", 1, 1, 0.2, 0},
                {"wait_at_barrier", "", 1, 1, 0.3, 0},
                {"sendrecv_candidate", "", 1, 1, 0.1, 0}};
  EXPECT_DOUBLE_EQ(observed_waiting_s(s), 1.3);
}

// Two ranks whose 20 µs bursts never coincide (S = 1/2), one every 0.2 s on each.
noise::NoiseRecord alternating_noise() {
  noise::NoiseRecord r;
  r.duration_s = 1;
  r.threshold_s = 1e-6;
  r.ranks.resize(2);
  for (int k = 0; k < 5; ++k) {
    r.ranks[0].bursts.push_back({0.2 * k + 0.05, 20e-6});
    r.ranks[1].bursts.push_back({0.2 * k + 0.15, 20e-6});
  }
  return r;
}

TEST(ComputeGrains, NoiseExplainsTheWaitingFormula1Predicts) {
  const Trace trace = grain_trace();
  Summary s;
  s.patterns = {{"wait_at_barrier", "", 1, 3, 1e-6, 0}};
  const NoisePrediction p = predict_noise_waiting(trace, s, alternating_noise(), "noise.json");
  EXPECT_EQ(p.file, "noise.json");
  EXPECT_EQ(p.noise_ranks, 2u);
  EXPECT_EQ(p.processes, 3u);
  EXPECT_EQ(p.metric_processes, 2u);  // the trace has more ranks than the noise file
  EXPECT_NEAR(p.noise_synchronicity, 0.5, 1e-12);
  EXPECT_NEAR(p.noise_coverage, 200e-6, 1e-12);
  EXPECT_EQ(p.grains, 4u);
  // g = 2·(1 s − 100 µs of bursts per rank) / 10 bursts, d = 20 µs, S = 1/2: a grain t < g
  // waits (1 − (1 − t/g)² − t/g)·d = (t/g − (t/g)²)·d on average.
  const double g = 2 * (1 - 100e-6) / 10;
  double expected_wait = 0, expected_delay = 0;
  for (double t : {5e-6, 50e-6, 0.0, 2.0}) {
    const double whole = std::floor(t / g), x = t / g - whole;
    expected_delay += (whole + 1 - (1 - x) * (1 - x)) * 20e-6;
    expected_wait += (1 - (1 - x) * (1 - x) - x) * 20e-6;
  }
  EXPECT_NEAR(p.delay_s, expected_delay, 1e-15);
  EXPECT_NEAR(p.wait_s, expected_wait, 1e-15);
  EXPECT_GT(p.wait_s, 0);
  ASSERT_TRUE(p.explained_fraction.has_value());
  EXPECT_NEAR(*p.explained_fraction, expected_wait / 1e-6, 1e-9);
  // No waiting observed: nothing to explain a share of.
  EXPECT_FALSE(predict_noise_waiting(trace, {}, alternating_noise(), "n").explained_fraction);
}

TEST(ComputeGrains, ReportsShowGrainsAndTheNoiseSectionOnlyWithNoise) {
  const Trace trace = grain_trace();
  AnalysisResult result;
  result.grains = compute_grains(trace);
  std::ostringstream plain;
  write_terminal_summary(result, {}, plain);
  EXPECT_EQ(plain.str().find("Machine noise"), std::string::npos);
  const nlohmann::ordered_json without = report_json(result);
  ASSERT_EQ(without.at("grains").size(), 2u);
  EXPECT_EQ(without.at("grains")[0].at("histogram")[8].at("high_s"), nullptr);
  EXPECT_FALSE(without.contains("noise"));

  Summary s;
  s.patterns = {{"wait_at_barrier", "", 1, 3, 1e-6, 0}};
  result.noise = predict_noise_waiting(trace, s, alternating_noise(), "noise.json");
  std::ostringstream with;
  write_terminal_summary(result, {}, with);
  EXPECT_NE(with.str().find("Machine noise (noise.json: 2 ranks, coverage C = 0.0002"),
            std::string::npos)
      << with.str();
  EXPECT_NE(with.str().find("Measured noise explains about"), std::string::npos);
  EXPECT_NE(with.str().find("of the 1.00 µs of waiting"), std::string::npos) << with.str();
  const nlohmann::ordered_json noise = report_json(result).at("noise");
  EXPECT_EQ(noise.at("grains"), 4);
  EXPECT_DOUBLE_EQ(noise.at("wait_s").get<double>(), result.noise->wait_s);
}

}  // namespace
}  // namespace collwrap
