#include "matrix_statistics.h"

#include <cmath>
#include <stdexcept>

#include "sample_stats.h"

namespace collwrap::bench {

std::vector<double> PeerSamples::summaries() const {
  std::vector<double> out;
  out.reserve(samples_.size() * kStatisticCount);
  for (const std::vector<double>& sample : samples_) {
    if (sample.empty()) {
      out.insert(out.end(), kStatisticCount, NAN);
      continue;
    }
    const SampleSummary s = summarize(sample);
    out.insert(out.end(), {s.min, s.median, s.mean, s.stddev, s.max});
  }
  return out;
}

StatisticMatrices assemble_matrices(std::span<const double> gathered, int world_size,
                                    bool receiver_timed) {
  const auto n = std::size_t(world_size);
  if (gathered.size() != n * n * kStatisticCount)
    throw std::invalid_argument("assemble_matrices: expected one summary per rank and peer");
  StatisticMatrices matrices;
  for (HeatmapMatrix& m : matrices) m.assign(n, std::vector<double>(n, NAN));
  for (std::size_t rank = 0; rank < n; ++rank)
    for (std::size_t peer = 0; peer < n; ++peer) {
      const std::size_t sender = receiver_timed ? peer : rank;
      const std::size_t receiver = receiver_timed ? rank : peer;
      for (std::size_t s = 0; s < kStatisticCount; ++s)
        matrices[s][sender][receiver] = gathered[(rank * n + peer) * kStatisticCount + s];
    }
  return matrices;
}

std::vector<double> finite_cells(const HeatmapMatrix& matrix) {
  std::vector<double> cells;
  for (const auto& row : matrix)
    for (double v : row)
      if (std::isfinite(v)) cells.push_back(v);
  return cells;
}

}  // namespace collwrap::bench
