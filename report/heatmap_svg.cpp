#include "heatmap_svg.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "markup_escape.h"

namespace collwrap {
namespace {

// Stops of the viridis ramp, evenly spaced; colours in between are interpolated linearly.
constexpr std::array<std::array<int, 3>, 5> kRamp = {
    {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
constexpr const char* kNoDataColor = "#d9d9d9";

// Cells shrink for large matrices so that the picture stays about 600 px wide.
int cell_size(std::size_t columns) {
  if (columns == 0) return 20;
  return std::clamp(int(600 / columns), 2, 40);
}

std::string format_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Label every k-th row/column so that labels do not overlap (about 14 px each).
std::size_t label_step(int cell) {
  return std::max<std::size_t>(1, std::size_t(14 / cell + 1));
}

}  // namespace

HeatmapScale value_range(const HeatmapMatrix& values) {
  bool any = false;
  HeatmapScale s;
  for (const auto& row : values)
    for (double v : row) {
      if (!std::isfinite(v)) continue;
      if (!any) s = {v, v};
      s.min = std::min(s.min, v);
      s.max = std::max(s.max, v);
      any = true;
    }
  return s;
}

HeatmapScale widen(HeatmapScale a, HeatmapScale b) {
  return {std::min(a.min, b.min), std::max(a.max, b.max)};
}

double scale_fraction(double value, HeatmapScale scale) {
  if (!(scale.max > scale.min)) return 0;
  return std::clamp((value - scale.min) / (scale.max - scale.min), 0.0, 1.0);
}

std::string heatmap_color(double fraction) {
  const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  const double position = f * double(kRamp.size() - 1);
  const std::size_t low = std::min(std::size_t(position), kRamp.size() - 2);
  const double t = position - double(low);
  char buf[8];
  int rgb[3];
  for (int c = 0; c < 3; ++c)
    rgb[c] = int(std::lround(kRamp[low][c] + t * (kRamp[low + 1][c] - kRamp[low][c])));
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

void write_heatmap_svg(const HeatmapMatrix& values, const HeatmapOptions& options,
                       std::ostream& out) {
  const std::size_t rows = values.size();
  const std::size_t columns = rows ? values.front().size() : 0;
  const HeatmapScale scale = options.scale.value_or(value_range(values));
  const int cell = cell_size(std::max(rows, columns));
  const int left = 70, top = 50, legend_gap = 20, legend_width = 16;
  const int grid_w = int(columns) * cell, grid_h = int(rows) * cell;
  const int width = left + grid_w + legend_gap + legend_width + 90;
  const int height = std::max(top + grid_h + 50, top + 200);
  std::string unit;
  if (!options.unit.empty()) unit.append(" ").append(escape_markup(options.unit));

  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  out << "<text x=\"" << left << "\" y=\"18\" font-size=\"14\">" << escape_markup(options.title)
      << "</text>\n";
  out << "<text x=\"" << left + grid_w / 2 << "\" y=\"" << top - 22 << "\" text-anchor=\"middle\">"
      << escape_markup(options.column_axis) << "</text>\n";
  out << "<text transform=\"translate(14," << top + grid_h / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << escape_markup(options.row_axis)
      << "</text>\n";

  const std::size_t step = label_step(cell);
  for (std::size_t c = 0; c < columns; c += step)
    out << "<text x=\"" << left + int(c) * cell + cell / 2 << "\" y=\"" << top - 6
        << "\" text-anchor=\"middle\">" << c << "</text>\n";
  for (std::size_t r = 0; r < rows; r += step)
    out << "<text x=\"" << left - 6 << "\" y=\"" << top + int(r) * cell + cell / 2 + 4
        << "\" text-anchor=\"end\">" << r << "</text>\n";

  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < values[r].size() && c < columns; ++c) {
      const double v = values[r][c];
      const bool has = std::isfinite(v);
      out << "<rect x=\"" << left + int(c) * cell << "\" y=\"" << top + int(r) * cell
          << "\" width=\"" << cell << "\" height=\"" << cell << "\" fill=\""
          << (has ? heatmap_color(scale_fraction(v, scale)) : kNoDataColor) << "\"><title>" << r
          << " \u2192 " << c << ": " << (has ? format_value(v) + unit : "no data")
          << "</title></rect>\n";
    }

  // Legend: a vertical ramp, maximum on top.
  const int lx = left + grid_w + legend_gap, legend_h = std::max(grid_h, 150);
  constexpr int kLegendSteps = 32;
  for (int i = 0; i < kLegendSteps; ++i) {
    const int y0 = top + legend_h * i / kLegendSteps, y1 = top + legend_h * (i + 1) / kLegendSteps;
    out << "<rect x=\"" << lx << "\" y=\"" << y0 << "\" width=\"" << legend_width << "\" height=\""
        << y1 - y0 << "\" fill=\"" << heatmap_color(1.0 - (i + 0.5) / kLegendSteps) << "\"/>\n";
  }
  out << "<text x=\"" << lx + legend_width + 4 << "\" y=\"" << top + 10 << "\">"
      << format_value(scale.max) << unit << "</text>\n";
  out << "<text x=\"" << lx + legend_width + 4 << "\" y=\"" << top + legend_h << "\">"
      << format_value(scale.min) << unit << "</text>\n";
  out << "</svg>\n";
}

}  // namespace collwrap
