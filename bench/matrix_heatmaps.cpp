#include "matrix_heatmaps.h"

#include <string>

namespace collwrap::bench {

HeatmapMatrix in_microseconds(const HeatmapMatrix& seconds) {
  HeatmapMatrix us = seconds;
  for (auto& row : us)
    for (double& v : row) v *= 1e6;
  return us;
}

std::array<HeatmapScale, kStatisticCount> global_scales(
    const std::vector<StatisticMatrices>& per_length) {
  std::array<HeatmapScale, kStatisticCount> scales;
  for (std::size_t s = 0; s < kStatisticCount; ++s)
    for (std::size_t i = 0; i < per_length.size(); ++i) {
      const HeatmapScale range = value_range(in_microseconds(per_length[i][s]));
      scales[s] = i == 0 ? range : widen(scales[s], range);
    }
  return scales;
}

HeatmapOptions delay_heatmap_options(MatrixMode mode, MatrixStatistic statistic, std::size_t length,
                                     std::optional<HeatmapScale> scale) {
  HeatmapOptions o;
  o.title = std::string(mode_name(mode)) + ": " +
            std::string(kStatisticNames[std::size_t(statistic)]) + " delay, " +
            std::to_string(length) + " B (" + (scale ? "global" : "local") + " scale)";
  o.unit = "us";
  o.scale = scale;
  return o;
}

}  // namespace collwrap::bench
