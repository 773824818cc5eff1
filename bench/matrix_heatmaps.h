// Heatmaps of collwrap-bench's delay matrices, drawn by the product's one heatmap writer
// (report/heatmap_svg.h) in microseconds. Global normalization shares one colour scale among
// all message lengths of a statistic, local normalization gives each matrix its own.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "heatmap_svg.h"
#include "matrix_options.h"
#include "matrix_statistics.h"

namespace collwrap::bench {

// The same matrix with every cell ×10⁶ (seconds → µs); NaN stays NaN.
HeatmapMatrix in_microseconds(const HeatmapMatrix& seconds);

// Per statistic, the range (µs) over the matrices of every message length.
std::array<HeatmapScale, kStatisticCount> global_scales(
    const std::vector<StatisticMatrices>& per_length);

// Title "<mode>: <statistic> delay, <length> B (global|local scale)", axes and unit "us";
// `scale` set for global normalization.
HeatmapOptions delay_heatmap_options(MatrixMode mode, MatrixStatistic statistic, std::size_t length,
                                     std::optional<HeatmapScale> scale);

}  // namespace collwrap::bench
