// The communication matrix as a heatmap (report/heatmap_svg.h): what --matrix-svg writes and
// the HTML report embeds. One row per sender and one column per receiver rank, over the whole
// world; pairs that exchanged no matched message are grey ("no data").
#pragma once

#include <ostream>

#include "analysis_result.h"
#include "heatmap_svg.h"

namespace collwrap {

enum class MatrixQuantity {
  Bytes,             // bytes sent (--matrix-svg's picture)
  MeanTransferTime,  // mean transfer time, in µs
};

// world_size × world_size (larger when a pair names a rank beyond it); NaN: no message.
HeatmapMatrix communication_heatmap(const AnalysisResult& result, MatrixQuantity quantity);

// Title and unit for the quantity; the scale is the matrix's own (local normalization).
HeatmapOptions communication_heatmap_options(MatrixQuantity quantity);

// --matrix-svg FILE: the heatmap of bytes sent, as a standalone SVG document.
void write_matrix_svg(const AnalysisResult& result, MatrixQuantity quantity, std::ostream& out);

}  // namespace collwrap
