// What noise does to a program of k grains of length t, each ending in a synchronization of
// p processes (Bartenev et al., RFNC-VNIIEF, "Tools for studying the instability of multiprocessor
// systems", sections 8, 10 and 11): a grain lasts until its slowest process is done, so a burst on
// any one process delays all of them.
//
// Formula (1), from the band metrics (noise_bands.h): a grain meets a burst of band j with
// probability P_p,j = 1 − (1 − t/g_j)^(1/S_j,p), which is the chance that at least one of 1/S
// independent processes has a burst in a window of length t < g_j; then
//   T_p = k·(t + Σ_j P_p,j·d_j),   E_p = t / (t + Σ_j P_p,j·d_j).
// For t ≥ g_j (beyond the paper's range) every whole g_j in t is taken to hold one burst on
// every process, and the remainder follows the formula: P = ⌊t/g⌋ + 1 − (1 − r/g)^(1/S) with
// r = t mod g. This is continuous at t = g and gives P_1,j = t/g_j for one process.
//
// Formula (2), the probabilistic model: if the noise delay x of one process in one grain has
// the density h, the grain's delay is the maximum over n processes, and
//   ε ≈ t0 / (t0 + n·∫ z·h(z)·(∫_0^z h(y)dy)^(n−1) dz).
// h is fitted from the collection: every rank's record is cut into consecutive grains of t0 of
// work, each stretched by the bursts it meets (as the simulator runs them on one rank), and h
// is the distribution of these stretches: the share of grains without noise plus, for the
// others, a histogram with logarithmic bins, uniform within each bin over the values it holds.
//
// The simulator replays the collected bursts, at the times they happened, onto the grains:
// on each process a grain ends when t of work is done outside its bursts; the next grain
// starts on all processes when the last one is done (the synchronization itself costs
// nothing). Runs follow each other through the whole record, as the paper's simulator does;
// every run that fits gives one T_p.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "noise_bands.h"
#include "noise_bursts.h"

namespace collwrap::noise {

// P_p,j of formula (1), extended to t ≥ g as above. 0 when the band has no bursts.
double burst_probability(double grain_s, double mean_gap_s, double synchronicity);

// Σ_j P_p,j·d_j: the expected delay of one grain of `grain_s` on the bands' p processes.
double expected_grain_delay(std::span<const BandMetrics> bands, double grain_s);

// The waiting that noise causes in one grain, per process: the grain lasts until the slowest
// of the p processes is done (Σ_j P_p,j·d_j) while a process on average loses only its own
// bursts (Σ_j P_1,j·d_j = Σ_j (t/g_j)·d_j); it waits the difference for the others.
double expected_grain_wait(std::span<const BandMetrics> bands, double grain_s);

// E_p of formula (1).
double formula1_efficiency(std::span<const BandMetrics> bands, double grain_s);

// A distribution of the noise delay of one grain on one process: a probability of no delay
// and pieces uniform over [low_s, high_s] (a point mass when they are equal), by low_s.
struct DelayDistribution {
  struct Piece {
    double low_s = 0;
    double high_s = 0;
    double probability = 0;
  };
  double zero_probability = 1;
  std::vector<Piece> pieces;
};

// h fitted from the bursts of `ranks` for grains of `grain_s` (bins: `bins_per_decade`).
DelayDistribution fit_grain_delay(std::span<const RankBursts> ranks, double record_s,
                                  double grain_s, int bins_per_decade = 10);

// n·∫ z·h(z)·H(z)^(n−1) dz, the expected maximum of n independent delays. Computed as
// ∫ (1 − H(z)^n) dz (the same integral after integration by parts), exactly for the pieces.
double expected_max_delay(const DelayDistribution& h, double processes);

// ε of formula (2).
double formula2_efficiency(const DelayDistribution& h, double grain_s, double processes);

// The simulator: one entry per consecutive run of `grains_s` that ends within the record, its
// time T_p; the noise is that of ranks[0..p). Empty when not even one run fits.
std::vector<double> simulate_runs(std::span<const RankBursts> ranks, double record_s,
                                  std::span<const double> grains_s);

}  // namespace collwrap::noise
