#include "noise_bands.h"

#include <algorithm>

namespace collwrap::noise {

std::vector<double> band_edges(double threshold_s, std::span<const double> upper_edges_s) {
  std::vector<double> edges{threshold_s};
  for (double e : upper_edges_s)
    if (e > edges.back()) edges.push_back(e);
  return edges;
}

std::vector<double> default_upper_edges_s() {
  return {10e-6, 100e-6, 1e-3, 10e-3};
}

double union_length(std::vector<Burst> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Burst& a, const Burst& b) { return a.start_s < b.start_s; });
  double total = 0, open_start = 0, open_end = -kNoUpperBound;
  for (const Burst& b : intervals) {
    const double end = b.start_s + b.duration_s;
    if (b.start_s > open_end) {
      if (open_end > open_start) total += open_end - open_start;
      open_start = b.start_s;
      open_end = end;
    } else {
      open_end = std::max(open_end, end);
    }
  }
  if (open_end > open_start) total += open_end - open_start;
  return total;
}

BandMetrics band_metrics(std::span<const RankBursts> ranks, double record_s, double low_s,
                         double high_s) {
  BandMetrics m;
  m.low_s = low_s;
  m.high_s = high_s;
  std::vector<Burst> in_band;
  double total = 0;
  for (const RankBursts& rank : ranks) {
    double on_rank = 0;
    for (const Burst& b : rank)
      if (b.duration_s >= low_s && b.duration_s < high_s) {
        in_band.push_back(b);
        on_rank += b.duration_s;
      }
    m.total_by_rank_s.push_back(on_rank);
    total += on_rank;
  }
  m.bursts = in_band.size();
  if (m.bursts == 0) return m;
  const double p = double(ranks.size());
  double all_bursts = 0;
  for (const RankBursts& rank : ranks)
    for (const Burst& b : rank) all_bursts += b.duration_s;
  const double work_s = std::max(0.0, record_s - all_bursts / p);
  m.mean_duration_s = total / double(m.bursts);
  m.mean_gap_s = p * work_s / double(m.bursts);
  m.union_s = union_length(std::move(in_band));
  m.coverage = record_s > 0 ? m.union_s / record_s : 0;
  m.synchronicity = m.union_s > 0 ? total / (p * m.union_s) : 1;
  return m;
}

std::vector<BandMetrics> all_bands(std::span<const RankBursts> ranks, double record_s,
                                   std::span<const double> edges) {
  std::vector<BandMetrics> bands;
  for (std::size_t j = 0; j < edges.size(); ++j)
    bands.push_back(band_metrics(ranks, record_s, edges[j],
                                 j + 1 < edges.size() ? edges[j + 1] : kNoUpperBound));
  return bands;
}

}  // namespace collwrap::noise
