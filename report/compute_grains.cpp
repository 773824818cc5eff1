#include "compute_grains.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "catalog.h"
#include "noise_bands.h"
#include "noise_prediction.h"
#include "result_units.h"
#include "sample_stats.h"

namespace collwrap {
namespace {

// Upper edges of the histogram's bounded bins.
constexpr std::array<double, 8> kGrainBinEdges = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10};

}  // namespace

std::vector<double> grain_lengths(const Location& location) {
  std::vector<double> grains;
  grains.reserve(location.calls());
  for (std::size_t c = 1; c < location.calls(); ++c) {
    const TimeNs gap = location.call_enter[c] - location.call_leave[c - 1];
    if (gap >= 0) grains.push_back(seconds(gap));
  }
  return grains;
}

std::vector<GrainBin> grain_histogram(std::span<const double> grains_s) {
  std::vector<GrainBin> bins;
  double low = 0;
  for (double high : kGrainBinEdges) {
    bins.push_back({low, high, 0, 0});
    low = high;
  }
  bins.push_back({low, std::nullopt, 0, 0});
  for (double g : grains_s) {
    const auto upper = std::upper_bound(kGrainBinEdges.begin(), kGrainBinEdges.end(), g);
    GrainBin& bin = bins[std::size_t(upper - kGrainBinEdges.begin())];
    ++bin.count;
    bin.total_s += g;
  }
  return bins;
}

std::vector<GrainDistribution> compute_grains(const Trace& trace, const LocationRange& at) {
  std::vector<GrainDistribution> out;
  for (std::size_t li = 0; li < trace.locations.size(); ++li) {
    if (!at.contains(li)) continue;
    const Location& l = trace.locations[li];
    std::vector<double> grains = grain_lengths(l);
    if (grains.empty()) continue;
    // The histogram sums the grains in the order they ran; the summary needs them sorted.
    std::vector<GrainBin> histogram = grain_histogram(grains);
    sort_ascending(grains);
    const SampleSummary s = summarize_sorted(grains);
    GrainDistribution d;
    d.rank = l.rank;
    d.thread = l.thread;
    d.count = s.n;
    d.total_s = s.mean * double(s.n);
    d.min_s = s.min;
    d.median_s = s.median;
    d.mean_s = s.mean;
    d.max_s = s.max;
    d.histogram = std::move(histogram);
    out.push_back(std::move(d));
  }
  return out;
}

double observed_waiting_s(const Summary& summary) {
  double total = 0;
  for (const PatternTotal& p : summary.patterns)
    if (const Pattern* pattern = find_pattern(p.pattern);
        pattern != nullptr && counts_separately(*pattern))
      total += p.wait_time_s;
  return total;
}

NoiseModel noise_model(const noise::NoiseRecord& noise, const std::string& file,
                       std::int32_t world_size) {
  NoiseModel m;
  NoisePrediction& p = m.figures;
  p.file = file;
  p.noise_ranks = std::uint32_t(noise.ranks.size());
  p.processes = std::uint32_t(std::max(world_size, 1));
  p.metric_processes = std::min(p.processes, p.noise_ranks);
  const std::vector<noise::RankBursts> bursts = noise.bursts(p.metric_processes);
  const std::vector<double> edges =
      noise::band_edges(noise.threshold_s, noise::default_upper_edges_s());
  m.bands = noise::all_bands(bursts, noise.duration_s, edges);
  const noise::BandMetrics all =
      noise::band_metrics(bursts, noise.duration_s, noise.threshold_s, noise::kNoUpperBound);
  p.noise_coverage = all.coverage;
  p.noise_synchronicity = all.synchronicity;
  return m;
}

std::vector<GrainNoise> grain_noise(const Trace& trace, const NoiseModel& model,
                                    const LocationRange& at) {
  std::vector<GrainNoise> out;
  for (std::size_t loc = 0; loc < trace.locations.size(); ++loc) {
    if (!at.contains(loc)) continue;
    GrainNoise& g = out.emplace_back();
    for (double grain : grain_lengths(trace.locations[loc])) {
      ++g.grains;
      g.compute_s += grain;
      g.delay_s += noise::expected_grain_delay(model.bands, grain);
      g.wait_s += noise::expected_grain_wait(model.bands, grain);
    }
  }
  return out;
}

NoisePrediction predict_noise_waiting(const NoiseModel& model,
                                      std::span<const GrainNoise> locations,
                                      const Summary& summary) {
  NoisePrediction p = model.figures;
  for (const GrainNoise& g : locations) {
    p.grains += g.grains;
    p.compute_s += g.compute_s;
    p.delay_s += g.delay_s;
    p.wait_s += g.wait_s;
  }
  p.observed_wait_s = observed_waiting_s(summary);
  if (p.observed_wait_s > 0) p.explained_fraction = p.wait_s / p.observed_wait_s;
  return p;
}

NoisePrediction predict_noise_waiting(const Trace& trace, const Summary& summary,
                                      const noise::NoiseRecord& noise, const std::string& file) {
  const NoiseModel model = noise_model(noise, file, trace.world_size);
  return predict_noise_waiting(model, grain_noise(trace, model), summary);
}

}  // namespace collwrap
