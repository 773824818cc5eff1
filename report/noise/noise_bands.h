// NoM's noise metrics (Bartenev et al., RFNC-VNIIEF, "Tools for studying the instability of
// multiprocessor systems", section 9). The bursts are split into bands by duration; for band j over
// p processes (the first p ranks of the collection, which lasted T):
//   d_j     mean burst duration over all p processes
//   D_j,k   total burst time on process k
//   g_j     mean gap between bursts on one process: the work time between two bursts of the
//           band, p·T_w / (bursts of the band on the p), where T_w is T minus a process's mean
//           total burst time (all bands): the time the collector's quanta ran undisturbed
//   U_j,p   length of the union of the bursts of the p processes (time when at least one of
//           them was interrupted)
//   C_j,p = U_j,p / T                coverage: the share of T the band's noise covers
//   S_j,p = Σ_k D_j,k / (p·U_j,p)    synchronicity: 1 when all processes are interrupted at the
//                                     same times, 1/p when never two at once
// The integral C and S are the same figures over all bursts of all bands.
//
// Gaps in work time rather than wall time keep formula (1), which adds the bursts to the work
// of a grain, right for heavy noise too: on one process it then gives E = 1 − C exactly.
//
// The paper counts in S only the processes on which the band occurred; here p counts all of
// them, as g_j does, so that formula (1) stays exact for noise confined to a few ranks (one
// rank with bursts among p then has S = 1/p, and the chance that a grain meets its bursts on
// any of the p ranks comes out right).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "noise_bursts.h"

namespace collwrap::noise {

inline constexpr double kNoUpperBound = std::numeric_limits<double>::infinity();

struct BandMetrics {
  double low_s = 0;  // bursts with low_s ≤ duration < high_s
  double high_s = kNoUpperBound;
  std::uint64_t bursts = 0;
  double mean_duration_s = 0;           // d_j
  std::vector<double> total_by_rank_s;  // D_j,k, one per process
  double mean_gap_s = kNoUpperBound;    // g_j; infinite without bursts
  double union_s = 0;                   // U_j,p
  double coverage = 0;                  // C_j,p
  double synchronicity = 1;             // S_j,p; 1 without bursts (nothing to disagree on)
};

// Band edges: `upper_edges_s` ascending, each above `threshold_s`; the bands are
// [threshold, e1), [e1, e2), …, [e_last, ∞).
std::vector<double> band_edges(double threshold_s, std::span<const double> upper_edges_s);

// The default upper edges: 10 µs, 100 µs, 1 ms, 10 ms.
std::vector<double> default_upper_edges_s();

// Metrics of the bursts with low_s ≤ duration < high_s over ranks[0..p), T = record_s.
BandMetrics band_metrics(std::span<const RankBursts> ranks, double record_s, double low_s,
                         double high_s);

// One entry per band of `edges` (from band_edges), empty bands included.
std::vector<BandMetrics> all_bands(std::span<const RankBursts> ranks, double record_s,
                                   std::span<const double> edges);

// Length of the union of intervals [start, start + duration).
double union_length(std::vector<Burst> intervals);

}  // namespace collwrap::noise
