#include "html_heatmap.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace collwrap {

HeatmapMatrix communication_heatmap(const AnalysisResult& result, MatrixQuantity quantity) {
  std::int32_t ranks = std::max(result.trace.world_size, 0);
  for (const CommPair& c : result.communication)
    ranks = std::max({ranks, c.sender + 1, c.receiver + 1});
  HeatmapMatrix matrix(static_cast<std::size_t>(ranks),
                       std::vector<double>(static_cast<std::size_t>(ranks),
                                           std::numeric_limits<double>::quiet_NaN()));
  for (const CommPair& c : result.communication) {
    if (c.sender < 0 || c.receiver < 0) continue;
    matrix[static_cast<std::size_t>(c.sender)][static_cast<std::size_t>(c.receiver)] =
        quantity == MatrixQuantity::Bytes ? static_cast<double>(c.bytes) : c.transfer_mean_s * 1e6;
  }
  return matrix;
}

HeatmapOptions communication_heatmap_options(MatrixQuantity quantity) {
  const bool bytes = quantity == MatrixQuantity::Bytes;
  HeatmapOptions options;
  options.title = std::string(bytes ? "Bytes sent" : "Mean transfer time");
  options.unit = std::string(bytes ? "B" : "\u00b5s");
  return options;
}

void write_matrix_svg(const AnalysisResult& result, MatrixQuantity quantity, std::ostream& out) {
  write_heatmap_svg(communication_heatmap(result, quantity),
                    communication_heatmap_options(quantity), out);
}

}  // namespace collwrap
