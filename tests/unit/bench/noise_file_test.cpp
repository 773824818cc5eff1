#include "noise_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "noise_report.h"

namespace collwrap::noise {
namespace {

std::string scratch_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("collwrap_noise_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

NoiseRecord sample_record() {
  NoiseRecord r;
  r.timer = "tsc";
  r.clock_sync = "linear";
  r.quantum_s = 5e-6;
  r.quantum_iterations = 4000;
  r.duration_s = 2;
  r.threshold_s = 1e-6;
  r.ranks = {{"node-a", 400000, 5e-6, {{0.1, 3e-6}, {0.5, 40e-6}, {1.5, 2e-3}}},
             {"node-b", 390000, 5.1e-6, {{0.1000001, 3e-6}, {1.9, 15e-3}}}};
  return r;
}

TEST(NoiseFile, RoundTripKeepsTheRecordAndTheBands) {
  const NoiseRecord r = sample_record();
  const NoiseAnalysis before = analyze_noise(r, {});
  const std::string path = scratch_file("round_trip.json");
  write_noise_file(path, r, default_upper_edges_s());
  const NoiseRecord back = read_noise_file(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.timer, "tsc");
  EXPECT_EQ(back.clock_sync, "linear");
  EXPECT_EQ(back.quantum_iterations, 4000u);
  EXPECT_DOUBLE_EQ(back.duration_s, 2);
  EXPECT_DOUBLE_EQ(back.threshold_s, 1e-6);
  ASSERT_EQ(back.ranks.size(), 2u);
  EXPECT_EQ(back.ranks[1].host, "node-b");
  EXPECT_EQ(back.ranks[0].quanta, 400000u);
  ASSERT_EQ(back.ranks[1].bursts.size(), 2u);
  EXPECT_DOUBLE_EQ(back.ranks[1].bursts[0].start_s, 0.1000001);
  EXPECT_DOUBLE_EQ(back.ranks[1].bursts[1].duration_s, 15e-3);
  const NoiseAnalysis after = analyze_noise(back, {});
  ASSERT_EQ(after.bands.size(), before.bands.size());
  for (std::size_t j = 0; j < after.bands.size(); ++j) {
    EXPECT_EQ(after.bands[j].bursts, before.bands[j].bursts);
    EXPECT_DOUBLE_EQ(after.bands[j].coverage, before.bands[j].coverage);
    EXPECT_DOUBLE_EQ(after.bands[j].synchronicity, before.bands[j].synchronicity);
  }
}

void expect_rejected(const std::string& text, const std::string& why) {
  const std::string path = scratch_file("bad.json");
  std::ofstream(path) << text;
  try {
    read_noise_file(path);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const NoiseFileError& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(NoiseFile, RejectsWhatIsNotANoiseFileOfThisVersion) {
  EXPECT_THROW(read_noise_file(scratch_file("missing.json")), NoiseFileError);
  expect_rejected("{\"schema_version\": \"1.2\"}", "not a noise file");
  expect_rejected("not json", "malformed");
  expect_rejected("{\"format\": \"collwrap-noise\", \"version\": 2}", "version 2");
  const std::string head =
      "{\"format\": \"collwrap-noise\", \"version\": 1, \"timer\": \"tsc\", \"clock_sync\": "
      "\"off\", \"quantum_s\": 5e-6, \"quantum_iterations\": 10, \"duration_s\": 1, "
      "\"threshold_s\": 1e-6, \"ranks\": ";
  expect_rejected(head + "[]}", "no rank");
  expect_rejected(head +
                      "[{\"host\": \"a\", \"quanta\": 1, \"min_quantum_s\": 5e-6, "
                      "\"bursts\": [[0.5, 1e-6], [0.2, 1e-6]]}]}",
                  "not in order");
  expect_rejected(head +
                      "[{\"host\": \"a\", \"quanta\": 1, \"min_quantum_s\": 5e-6, "
                      "\"bursts\": [[3.0, 1e-6]]}]}",
                  "outside");
}

TEST(NoiseReport, PredictsForEveryGrainAndOnlyFormula2BeyondTheRecordedRanks) {
  const NoiseRecord r = sample_record();
  NoiseAnalysisOptions options;
  options.grains_s = {100e-6, 1e-3};
  const NoiseAnalysis a = analyze_noise(r, options);
  EXPECT_EQ(a.processes, 2u);
  ASSERT_EQ(a.integral_by_processes.size(), 2u);  // p = 1 and 2
  EXPECT_EQ(a.integral_by_processes[0].first, 1u);
  EXPECT_NEAR(a.integral_by_processes[0].second.synchronicity, 1, 1e-12);
  EXPECT_DOUBLE_EQ(a.integral_by_processes[1].second.coverage, a.integral.coverage);
  ASSERT_EQ(a.predictions.size(), 2u);
  for (const GrainPrediction& g : a.predictions) {
    ASSERT_TRUE(g.formula1.has_value());
    EXPECT_GT(*g.formula1, 0);
    EXPECT_LE(*g.formula1, 1);
    EXPECT_GT(g.formula2, 0);
    EXPECT_LE(g.formula2, 1);
    EXPECT_GT(g.simulated_efficiency.n, 0u);
    EXPECT_LE(g.simulated_efficiency.max, 1);
  }
  options.processes = 64;
  const NoiseAnalysis wide = analyze_noise(r, options);
  EXPECT_EQ(wide.metric_processes, 2u);
  EXPECT_FALSE(wide.predictions[0].formula1.has_value());
  EXPECT_EQ(wide.predictions[0].simulated_efficiency.n, 0u);
  EXPECT_LT(wide.predictions[0].formula2, a.predictions[0].formula2);  // more ranks, more loss
}

}  // namespace
}  // namespace collwrap::noise
