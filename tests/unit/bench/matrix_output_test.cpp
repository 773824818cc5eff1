#include "matrix_output.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "matrix_heatmaps.h"

namespace collwrap::bench {
namespace {

namespace fs = std::filesystem;

// All four statistics of a 2×2 run: cell 0→1 = a, cell 1→0 = b (seconds), diagonal empty.
StatisticMatrices two_ranks(double a, double b) {
  StatisticMatrices m;
  for (HeatmapMatrix& x : m) x = {{NAN, a}, {b, NAN}};
  return m;
}

MatrixRun sample_run() {
  MatrixRun run;
  run.options.mode = MatrixMode::NoiseBlocking;
  run.options.lengths = {0, 1024};
  run.options.repeats = 5;
  run.world_size = 2;
  run.hosts = {"node-a", "node-b"};
  run.matrices = {two_ranks(1e-6, 2e-6), two_ranks(3e-6, 8e-6)};
  return run;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(MatrixOutput, FileNamesNameStatisticAndLength) {
  EXPECT_EQ(matrix_file_name(MatrixStatistic::Median, 1024), "median_1024.csv");
  EXPECT_EQ(heatmap_file_name(MatrixStatistic::Stddev, 0, true), "stddev_0.global.svg");
  EXPECT_EQ(heatmap_file_name(MatrixStatistic::Min, 8, false), "min_8.local.svg");
}

TEST(MatrixOutput, CsvHasOneLinePerSenderAndNanOnTheDiagonal) {
  std::ostringstream out;
  write_delay_matrix({{NAN, 1.5e-6, 2e-3}, {0.25, NAN, 1}, {3, 4, NAN}}, out);
  EXPECT_EQ(out.str(), "nan,1.5e-06,0.002\n0.25,nan,1\n3,4,nan\n");
}

TEST(MatrixOutput, EveryModeSaysWhatItTimes) {
  for (std::size_t i = 0; i < kMatrixModeNames.size(); ++i)
    EXPECT_FALSE(timing_description(MatrixMode(i)).empty()) << kMatrixModeNames[i];
}

TEST(MatrixOutput, IndexListsParametersAndFilesPerLength) {
  MatrixRun run = sample_run();
  run.noise_ranks = 2;
  run.options.normalization = Normalization::Global;
  const nlohmann::ordered_json index = matrix_index(run);
  EXPECT_EQ(index["mode"], "noise_blocking");
  EXPECT_EQ(index["ranks"], 2);
  EXPECT_EQ(index["hosts"][1], "node-b");
  EXPECT_EQ(index["unit"], "s");
  EXPECT_EQ(index["noise"]["ranks_per_pair"], 2);
  ASSERT_EQ(index["lengths"].size(), 2u);
  EXPECT_EQ(index["lengths"][1]["bytes"], 1024);
  EXPECT_EQ(index["lengths"][1]["matrices"]["mean"], "mean_1024.csv");
  EXPECT_EQ(index["lengths"][0]["heatmaps"]["global"]["min"], "min_0.global.svg");
  EXPECT_FALSE(index["lengths"][0]["heatmaps"].contains("local"));

  run.options.svg = false;
  run.options.mode = MatrixMode::OneToOne;
  const nlohmann::ordered_json plain = matrix_index(run);
  EXPECT_FALSE(plain.contains("noise"));
  EXPECT_FALSE(plain["lengths"][0].contains("heatmaps"));
}

TEST(MatrixHeatmaps, GlobalScaleSpansEveryLengthInMicroseconds) {
  const MatrixRun run = sample_run();
  const auto scales = global_scales(run.matrices);
  EXPECT_NEAR(scales[0].min, 1.0, 1e-9);
  EXPECT_NEAR(scales[0].max, 8.0, 1e-9);
  const HeatmapMatrix us = in_microseconds({{NAN, 2e-6}});
  EXPECT_TRUE(std::isnan(us[0][0]));
  EXPECT_NEAR(us[0][1], 2.0, 1e-12);
  const HeatmapOptions global =
      delay_heatmap_options(MatrixMode::AllToAll, MatrixStatistic::Median, 64, scales[1]);
  EXPECT_EQ(global.title, "all_to_all: median delay, 64 B (global scale)");
  EXPECT_EQ(global.unit, "us");
  EXPECT_TRUE(global.scale.has_value());
  EXPECT_FALSE(
      delay_heatmap_options(MatrixMode::AllToAll, MatrixStatistic::Median, 64, std::nullopt)
          .scale.has_value());
}

TEST(MatrixOutput, WritesIndexMatricesAndBothHeatmapSets) {
  const fs::path dir = fs::path(testing::TempDir()) / "collwrap-matrix-output-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  EXPECT_TRUE(write_matrix_run(sample_run(), dir.string()));
  EXPECT_TRUE(fs::exists(dir / kMatrixIndexName));
  EXPECT_EQ(slurp(dir / "min_1024.csv"), "nan,3e-06\n8e-06,nan\n");
  // The global heatmap of length 0 uses the scale of both lengths: its legend tops at 8 us,
  // while the local one tops at its own largest cell, 2 us.
  EXPECT_NE(slurp(dir / "mean_0.global.svg").find(">8 us</text>"), std::string::npos);
  EXPECT_NE(slurp(dir / "mean_0.local.svg").find(">2 us</text>"), std::string::npos);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1 + 2 * kStatisticCount * 3);  // index + per length: csv, global, local
  fs::remove_all(dir);
}

TEST(MatrixOutput, UnwritableDirectoryIsAnErrorNamingTheFile) {
  testing::internal::CaptureStderr();
  EXPECT_FALSE(write_matrix_run(sample_run(), "/nonexistent/collwrap-matrix"));
  const std::string message = testing::internal::GetCapturedStderr();
  EXPECT_EQ(message.rfind("collwrap-bench matrix: cannot write /nonexistent/collwrap-matrix/", 0),
            0u)
      << message;
}

}  // namespace
}  // namespace collwrap::bench
