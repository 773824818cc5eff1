#include "matrix_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collwrap::bench {
namespace {

// Parses `words` as the options of `collwrap-bench matrix`.
MatrixOptions parse(std::vector<std::string> words) {
  words.insert(words.begin(), "matrix");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  Arguments args(int(argv.size()), argv.data());
  return parse_matrix_options(args);
}

TEST(MatrixOptions, DefaultsFollowNetworkTest) {
  const MatrixOptions o = parse({});
  EXPECT_EQ(o.mode, MatrixMode::OneToOne);
  EXPECT_EQ(o.lengths.front(), 0u);
  EXPECT_EQ(o.lengths.back(), 10000u);
  EXPECT_EQ(o.lengths.size(), 11u);
  EXPECT_EQ(o.repeats, 100);
  EXPECT_EQ(o.noise_messages, 100);
  EXPECT_TRUE(o.svg);
  EXPECT_EQ(o.normalization, Normalization::Both);
  EXPECT_TRUE(o.output.empty());
}

TEST(MatrixOptions, ReadsEveryOption) {
  const MatrixOptions o = parse({"--mode",     "noise",           "--begin", "8",
                                 "--end=1024", "--factor",        "4",       "--repeats",
                                 "7",          "--noise-ranks",   "3",       "--noise-fraction",
                                 "0.25",       "--noise-length",  "16",      "--seed",
                                 "42",         "--output",        "out",     "--heatmaps",
                                 "none",       "--normalization", "local"});
  EXPECT_EQ(o.mode, MatrixMode::Noise);
  EXPECT_EQ(o.lengths, (std::vector<std::size_t>{8, 32, 128, 512}));
  EXPECT_EQ(o.repeats, 7);
  EXPECT_EQ(o.noise_messages, 7);  // follows --repeats unless given
  EXPECT_EQ(o.noise_ranks, 3);
  EXPECT_DOUBLE_EQ(o.noise_fraction, 0.25);
  EXPECT_EQ(o.noise_length, 16u);
  EXPECT_EQ(o.seed, 42u);
  EXPECT_EQ(o.output, "out");
  EXPECT_FALSE(o.svg);
  EXPECT_EQ(o.normalization, Normalization::Local);
}

TEST(MatrixOptions, EveryModeNameRoundTrips) {
  for (std::size_t i = 0; i < kMatrixModeNames.size(); ++i) {
    const MatrixOptions o = parse({"--mode", std::string(kMatrixModeNames[i])});
    EXPECT_EQ(o.mode, MatrixMode(i));
    EXPECT_EQ(mode_name(o.mode), kMatrixModeNames[i]);
  }
}

TEST(MatrixOptions, RejectsContradictionsAndUnknownOptions) {
  EXPECT_THROW(parse({"--step", "10", "--factor", "2"}), UsageError);
  EXPECT_THROW(parse({"--mode", "ping_pong"}), UsageError);
  EXPECT_THROW(parse({"--begin", "100", "--end", "10"}), UsageError);
  EXPECT_THROW(parse({"--repeats", "0"}), UsageError);
  EXPECT_THROW(parse({"--noise-fraction", "1.5"}), UsageError);
  EXPECT_THROW(parse({"--normalization", "log"}), UsageError);
  EXPECT_THROW(parse({"--lengths", "8"}), UsageError);
}

TEST(MatrixLengths, ArithmeticSeriesIncludesTheEndWhenOnTheStep) {
  EXPECT_EQ(arithmetic_lengths(0, 300, 100), (std::vector<std::size_t>{0, 100, 200, 300}));
  EXPECT_EQ(arithmetic_lengths(10, 35, 10), (std::vector<std::size_t>{10, 20, 30}));
  EXPECT_EQ(arithmetic_lengths(64, 64, 0), (std::vector<std::size_t>{64}));
  EXPECT_THROW(arithmetic_lengths(0, 10, 0), UsageError);
  EXPECT_THROW(arithmetic_lengths(11, 10, 1), UsageError);
  // No overflow near the top of size_t.
  const std::size_t top = std::size_t(-1);
  EXPECT_EQ(arithmetic_lengths(top - 5, top, 4), (std::vector<std::size_t>{top - 5, top - 1}));
}

TEST(NoiseRankCount, ExplicitCountFractionAndTheMinimumOfTwo) {
  MatrixOptions o;
  o.noise_ranks = 3;
  EXPECT_EQ(noise_rank_count(o, 5), 3);
  EXPECT_THROW(noise_rank_count(o, 4), UsageError);  // only 2 ranks outside the pair
  o.noise_ranks.reset();
  o.noise_fraction = 0.5;
  EXPECT_EQ(noise_rank_count(o, 12), 5);  // half of the 10 ranks outside the pair
  EXPECT_EQ(noise_rank_count(o, 4), 2);   // rounds to 1, but a lone noise rank is silent
  EXPECT_EQ(noise_rank_count(o, 3), 1);   // only one rank outside the pair
  EXPECT_EQ(noise_rank_count(o, 2), 0);
  o.noise_fraction = 0;
  EXPECT_EQ(noise_rank_count(o, 12), 0);
  o.noise_fraction = 1;
  EXPECT_EQ(noise_rank_count(o, 12), 10);
}

}  // namespace
}  // namespace collwrap::bench
