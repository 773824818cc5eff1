// Heatmaps of N×M matrices as standalone SVG: the analyzer's communication matrix and
// collwrap-bench's pairwise matrices are drawn by this one writer (and the HTML report embeds
// its output), so that every heatmap of the product reads the same way.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace collwrap {

// Rows of equal length; a NaN cell has no data and is drawn grey.
using HeatmapMatrix = std::vector<std::vector<double>>;

struct HeatmapScale {
  double min = 0;
  double max = 0;
};

struct HeatmapOptions {
  std::string title;
  std::string row_axis = "sender rank";
  std::string column_axis = "receiver rank";
  std::string unit;  // appended to values in the legend and the cells' tooltips, e.g. "us"
  // Global normalization: the caller's range, shared by a family of matrices (e.g. all message
  // lengths), so that equal colours mean equal values across files. Unset: local normalization,
  // this matrix's own finite minimum and maximum.
  std::optional<HeatmapScale> scale;
};

// The smallest and largest finite cells; {0, 0} when there are none. Merge several with
// widen() to build a global scale.
HeatmapScale value_range(const HeatmapMatrix& values);
HeatmapScale widen(HeatmapScale a, HeatmapScale b);

// Where `value` falls in `scale`, clamped to [0, 1]; 0 when the scale is a single value.
double scale_fraction(double value, HeatmapScale scale);

// The colour of a fraction in [0, 1] on a perceptually ordered ramp (dark blue → yellow), as
// "#rrggbb".
std::string heatmap_color(double fraction);

// Writes one self-contained SVG document: a grid of cells (row 0 on top), each with a
// <title> tooltip "row → column: value unit", axis labels every few ranks, and a colour legend
// with the scale's bounds. Text is escaped.
void write_heatmap_svg(const HeatmapMatrix& values, const HeatmapOptions& options,
                       std::ostream& out);

}  // namespace collwrap
