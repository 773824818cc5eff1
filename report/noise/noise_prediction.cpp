#include "noise_prediction.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace collwrap::noise {
namespace {

// Moves `next` to the first burst that ends after `time_s`; time only moves forward, so
// `next` does too.
void skip_bursts_before(const RankBursts& bursts, std::size_t& next, double time_s) {
  while (next < bursts.size() && bursts[next].start_s + bursts[next].duration_s <= time_s) ++next;
}

// When a grain started at `start_s` on one rank ends: after `grain_s` of work outside the
// rank's bursts. `next` indexes the first burst that may still matter.
double grain_end(const RankBursts& bursts, std::size_t& next, double start_s, double grain_s) {
  skip_bursts_before(bursts, next, start_s);
  double now = start_s, work_left = grain_s;
  for (std::size_t i = next; i < bursts.size(); ++i) {
    const Burst& b = bursts[i];
    if (b.start_s >= now + work_left) break;
    if (b.start_s > now) work_left -= b.start_s - now;
    now = std::max(now, b.start_s + b.duration_s);
  }
  return now + work_left;
}

}  // namespace

double burst_probability(double grain_s, double mean_gap_s, double synchronicity) {
  if (!std::isfinite(mean_gap_s) || mean_gap_s <= 0 || synchronicity <= 0) return 0;
  const double whole_gaps = std::floor(grain_s / mean_gap_s);
  const double rest = grain_s - whole_gaps * mean_gap_s;
  return whole_gaps + 1 - std::pow(1 - rest / mean_gap_s, 1 / synchronicity);
}

double expected_grain_delay(std::span<const BandMetrics> bands, double grain_s) {
  double delay = 0;
  for (const BandMetrics& b : bands)
    delay += burst_probability(grain_s, b.mean_gap_s, b.synchronicity) * b.mean_duration_s;
  return delay;
}

double expected_grain_wait(std::span<const BandMetrics> bands, double grain_s) {
  double own = 0;
  for (const BandMetrics& b : bands)
    own += burst_probability(grain_s, b.mean_gap_s, 1.0) * b.mean_duration_s;
  return expected_grain_delay(bands, grain_s) - own;
}

double formula1_efficiency(std::span<const BandMetrics> bands, double grain_s) {
  return grain_s / (grain_s + expected_grain_delay(bands, grain_s));
}

DelayDistribution fit_grain_delay(std::span<const RankBursts> ranks, double record_s,
                                  double grain_s, int bins_per_decade) {
  DelayDistribution h;
  if (!(grain_s > 0)) return h;
  // Every rank's record is cut into consecutive grains of work, as the simulator runs them
  // on one rank; a grain's delay is the noise it met. Stretches without bursts are counted,
  // not walked: records can be hours of µs grains.
  std::vector<double> positive;
  std::size_t grains = 0;
  for (const RankBursts& rank : ranks) {
    std::size_t next = 0;
    for (double start = 0;;) {
      skip_bursts_before(rank, next, start);
      const double quiet_until = next < rank.size() ? rank[next].start_s : record_s;
      const double quiet =
          std::floor(std::max(0.0, std::min(quiet_until, record_s) - start) / grain_s);
      grains += std::size_t(quiet);
      start += quiet * grain_s;
      const double end = grain_end(rank, next, start, grain_s);
      if (end > record_s) break;
      ++grains;
      if (const double delay = end - start - grain_s; delay > grain_s * 1e-9)
        positive.push_back(delay);
      start = end;
    }
  }
  if (grains == 0) return h;
  const double all = double(grains);
  h.zero_probability = 1 - double(positive.size()) / all;
  // Bin → the smallest and largest delay in it and how many.
  std::map<long, DelayDistribution::Piece> bins;
  for (double d : positive) {
    const long bin = std::lround(std::floor(bins_per_decade * std::log10(d)));
    auto [it, added] = bins.try_emplace(bin, DelayDistribution::Piece{d, d, 0});
    it->second.low_s = std::min(it->second.low_s, d);
    it->second.high_s = std::max(it->second.high_s, d);
    it->second.probability += 1 / all;
  }
  for (const auto& [bin, piece] : bins) h.pieces.push_back(piece);
  return h;
}

double expected_max_delay(const DelayDistribution& h, double processes) {
  const double n = processes;
  double expected = 0, at = 0, cumulative = h.zero_probability;
  for (const DelayDistribution::Piece& piece : h.pieces) {
    expected += (1 - std::pow(cumulative, n)) * (piece.low_s - at);
    const double next = std::min(1.0, cumulative + piece.probability);
    if (piece.high_s > piece.low_s) {
      // Mean of H^n over the piece, where H rises linearly from `cumulative` to `next`.
      const double rise = next - cumulative;
      const double mean_power =
          rise > 1e-12 ? (std::pow(next, n + 1) - std::pow(cumulative, n + 1)) / ((n + 1) * rise)
                       : std::pow(cumulative, n);
      expected += (1 - mean_power) * (piece.high_s - piece.low_s);
    }
    at = piece.high_s;
    cumulative = next;
  }
  return expected;
}

double formula2_efficiency(const DelayDistribution& h, double grain_s, double processes) {
  return grain_s / (grain_s + expected_max_delay(h, processes));
}

std::vector<double> simulate_runs(std::span<const RankBursts> ranks, double record_s,
                                  std::span<const double> grains_s) {
  std::vector<double> runs;
  if (std::accumulate(grains_s.begin(), grains_s.end(), 0.0) <= 0 || ranks.empty()) return runs;
  std::vector<std::size_t> next(ranks.size(), 0);
  double now = 0;
  for (;;) {
    const double run_start = now;
    for (double grain : grains_s) {
      double slowest = now;
      for (std::size_t r = 0; r < ranks.size(); ++r)
        slowest = std::max(slowest, grain_end(ranks[r], next[r], now, grain));
      now = slowest;
      if (now > record_s) return runs;
    }
    runs.push_back(now - run_start);
  }
}

}  // namespace collwrap::noise
