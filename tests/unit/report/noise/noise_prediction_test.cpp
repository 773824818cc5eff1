#include "noise_prediction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace collwrap::noise {
namespace {

TEST(NoiseFormula1, BurstProbabilityLimits) {
  // Fully synchronous: the chance of one process, t/g.
  EXPECT_DOUBLE_EQ(burst_probability(1e-4, 1e-3, 1.0), 0.1);
  // Fully asynchronous over 4: at least one of 4 independent processes.
  EXPECT_NEAR(burst_probability(1e-4, 1e-3, 0.25), 1 - std::pow(0.9, 4), 1e-12);
  // Beyond g: one burst per whole gap, the remainder by the formula; continuous at t = g.
  EXPECT_NEAR(burst_probability(1e-3, 1e-3, 0.25), 1.0, 1e-12);
  EXPECT_NEAR(burst_probability(2.5e-3, 1e-3, 0.5), 2 + 1 - 0.25, 1e-12);
  EXPECT_NEAR(burst_probability(2.5e-3, 1e-3, 1.0), 2.5, 1e-12);  // one process: t/g
  // A band without bursts never delays.
  EXPECT_EQ(burst_probability(1e-3, kNoUpperBound, 1.0), 0);
}

TEST(NoiseFormula1, OneProcessLosesExactlyItsCoverage) {
  // Half of every millisecond is noise: C = 1/2, and a process works half the time.
  RankBursts half;
  for (int k = 0; k < 1000; ++k) half.push_back({k * 1e-3 + 0.25e-3, 0.5e-3});
  const std::vector<RankBursts> ranks = {half};
  const std::vector<BandMetrics> bands = {band_metrics(ranks, 1.0, 1e-6, kNoUpperBound)};
  EXPECT_NEAR(bands[0].coverage, 0.5, 1e-9);
  EXPECT_NEAR(formula1_efficiency(bands, 10e-6), 0.5, 1e-9);
  const std::vector<double> runs = simulate_runs(ranks, 1.0, std::vector<double>(2000, 10e-6));
  ASSERT_FALSE(runs.empty());
  EXPECT_NEAR(2000 * 10e-6 / runs[0], 0.5, 0.01);
}

// p ranks in `groups` groups; the ranks of a group share their bursts (duration d, one every g,
// each group at its own random phase), so that S ≈ 1/groups.
std::vector<RankBursts> grouped_periodic_noise(int p, int groups, double record_s, double gap_s,
                                               double duration_s, std::mt19937_64& random) {
  std::uniform_real_distribution<double> phase(0, gap_s);
  std::vector<RankBursts> group_bursts(std::size_t(groups), RankBursts{});
  for (RankBursts& g : group_bursts)
    for (double t = phase(random); t + duration_s < record_s; t += gap_s)
      g.push_back({t, duration_s});
  std::vector<RankBursts> ranks;
  for (int r = 0; r < p; ++r) ranks.push_back(group_bursts[std::size_t(r % groups)]);
  return ranks;
}

// Direct numerical simulation of formula (1)'s model: a grain at a random time is delayed by d
// when any rank has a burst starting in it.
double monte_carlo_efficiency(const std::vector<RankBursts>& ranks, double record_s, double grain_s,
                              double duration_s, std::mt19937_64& random) {
  std::uniform_real_distribution<double> start(0, record_s - grain_s);
  constexpr int kGrains = 200'000;
  double delay = 0;
  for (int i = 0; i < kGrains; ++i) {
    const double s = start(random);
    bool hit = false;
    for (const RankBursts& rank : ranks) {
      const auto it = std::lower_bound(rank.begin(), rank.end(), s,
                                       [](const Burst& b, double t) { return b.start_s < t; });
      hit |= it != rank.end() && it->start_s < s + grain_s;
    }
    if (hit) delay += duration_s;
  }
  return grain_s / (grain_s + delay / kGrains);
}

TEST(NoiseFormula1, AgreesWithDirectSimulationOfItsModel) {
  std::mt19937_64 random(4);
  constexpr double kRecord = 20, kGap = 1e-3, kDuration = 20e-6;
  for (int groups : {1, 2, 8}) {
    const auto ranks = grouped_periodic_noise(8, groups, kRecord, kGap, kDuration, random);
    const BandMetrics band = band_metrics(ranks, kRecord, 1e-6, kNoUpperBound);
    // Groups whose phases happen to lie within d of each other overlap, which raises S.
    EXPECT_GE(band.synchronicity, 1.0 / groups - 1e-9) << groups << " groups";
    EXPECT_LE(band.synchronicity, 1.5 / groups) << groups << " groups";
    const std::vector<BandMetrics> bands{band};
    for (double grain : {50e-6, 200e-6, 800e-6}) {
      const double formula = formula1_efficiency(bands, grain);
      const double direct = monte_carlo_efficiency(ranks, kRecord, grain, kDuration, random);
      EXPECT_NEAR(formula, direct, 0.01) << groups << " groups, grain " << grain;
      // The replay of the same bursts sees the same delays (plus bursts met in the delay).
      const std::vector<double> grains(2000, grain);
      const std::vector<double> runs = simulate_runs(ranks, kRecord, grains);
      ASSERT_FALSE(runs.empty());
      double mean = 0;
      for (double t : runs) mean += 2000 * grain / t / double(runs.size());
      EXPECT_NEAR(formula, mean, 0.02) << groups << " groups, grain " << grain;
    }
  }
}

TEST(NoiseFormula2, PointMassHasTheExactExpectedMaximum) {
  DelayDistribution h;
  h.zero_probability = 0.75;
  h.pieces = {{30e-6, 30e-6, 0.25}};
  for (double n : {1.0, 2.0, 16.0})
    EXPECT_NEAR(expected_max_delay(h, n), 30e-6 * (1 - std::pow(0.75, n)), 1e-15) << n;
  EXPECT_NEAR(formula2_efficiency(h, 100e-6, 1), 100.0 / (100 + 7.5), 1e-12);
}

TEST(NoiseFormula2, AgreesWithDirectSimulationOfItsModel) {
  // One process's delay per grain: none with probability 0.6, else uniform on [10, 50] µs
  // (0.3) or on [200, 400] µs (0.1).
  DelayDistribution h;
  h.zero_probability = 0.6;
  h.pieces = {{10e-6, 50e-6, 0.3}, {200e-6, 400e-6, 0.1}};
  std::mt19937_64 random(2);
  std::uniform_real_distribution<double> unit(0, 1);
  const auto draw = [&] {
    const double u = unit(random);
    if (u < 0.6) return 0.0;
    if (u < 0.9) return 10e-6 + 40e-6 * unit(random);
    return 200e-6 + 200e-6 * unit(random);
  };
  constexpr double kGrain = 1e-3;
  for (int n : {1, 4, 32}) {
    constexpr int kSteps = 100'000;
    double total = 0;
    for (int step = 0; step < kSteps; ++step) {
      double slowest = 0;
      for (int p = 0; p < n; ++p) slowest = std::max(slowest, draw());
      total += kGrain + slowest;
    }
    const double direct = kSteps * kGrain / total;
    EXPECT_NEAR(formula2_efficiency(h, kGrain, n), direct, 0.003) << n << " processes";
  }
}

TEST(NoiseFormula2, FitsTheDelayPerGrainFromTheBursts) {
  // Grains of 1 ms of work over 0.1 s. Rank 0 has a 30 µs burst every 4 ms: 25 of its 99
  // complete grains (0.1 s − 25·30 µs of work) meet one. Rank 1 has two bursts (10 + 20 µs)
  // in its grain 3 of 99.
  RankBursts every_fourth;
  for (int k = 0; k < 25; ++k) every_fourth.push_back({k * 4e-3 + 1e-4, 30e-6});
  const std::vector<RankBursts> ranks = {every_fourth, {{3.1e-3, 10e-6}, {3.5e-3, 20e-6}}};
  const DelayDistribution h = fit_grain_delay(ranks, 0.1, 1e-3);
  EXPECT_NEAR(h.zero_probability, 1 - 26.0 / 198, 1e-12);
  ASSERT_EQ(h.pieces.size(), 1u);  // every delay is 30 µs
  EXPECT_NEAR(h.pieces[0].low_s, 30e-6, 1e-12);
  EXPECT_NEAR(h.pieces[0].high_s, 30e-6, 1e-12);
  EXPECT_NEAR(h.pieces[0].probability, 26.0 / 198, 1e-12);
  // On one process formula (2) loses the coverage, like formula (1).
  EXPECT_NEAR(formula2_efficiency(fit_grain_delay({&ranks[0], 1}, 0.1, 1e-3), 1e-3, 1),
              1e-3 / (1e-3 + 25.0 / 99 * 30e-6), 1e-12);
  // Grains longer than the record: nothing to fit, no delay.
  EXPECT_EQ(fit_grain_delay(ranks, 0.1, 1.0).pieces.size(), 0u);
  EXPECT_EQ(expected_max_delay(fit_grain_delay(ranks, 0.1, 1.0), 8), 0);
}

TEST(NoiseSimulator, ReplaysBurstsOntoGrainsByHand) {
  // Rank 0: burst 5..7 ms; rank 1: burst 15..18 ms. Two grains of 10 ms per run.
  const std::vector<RankBursts> ranks = {{{5e-3, 2e-3}}, {{15e-3, 3e-3}}};
  const std::vector<double> grains = {10e-3, 10e-3};
  const std::vector<double> runs = simulate_runs(ranks, 0.1, grains);
  // Run 1: grain 1 ends at 12 ms (rank 0 lost 2 ms); grain 2 runs from 12 ms, rank 1 works
  // 12..15, waits 15..18, works 18..25. Then clean runs of 20 ms from 25 ms: 25 → 85 ms makes
  // 3 more, the next would end at 105 ms > 100 ms.
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_NEAR(runs[0], 25e-3, 1e-12);
  for (std::size_t i = 1; i < runs.size(); ++i) EXPECT_NEAR(runs[i], 20e-3, 1e-12);
}

TEST(NoiseSimulator, GrainStartingInsideABurstWaitsForItsEnd) {
  // Rank 1 is interrupted 0.5..1.2 ms, so grain 1 ends at 1.7 ms; rank 0 finished at 1 ms and
  // its burst 1..2 ms is under way when grain 2 starts: it works 2..3 ms.
  const std::vector<RankBursts> ranks = {{{1.0e-3, 1.0e-3}}, {{0.5e-3, 0.7e-3}}};
  const std::vector<double> grains = {1e-3, 1e-3};
  const std::vector<double> runs = simulate_runs(ranks, 3.5e-3, grains);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_NEAR(runs[0], 3e-3, 1e-12);
  EXPECT_TRUE(simulate_runs(ranks, 2.9e-3, grains).empty());  // no run ends within the record
}

}  // namespace
}  // namespace collwrap::noise
