// The communication matrix as CSV (--matrix-csv): one row per sender × receiver pair, for
// spreadsheets and plotting scripts.
#pragma once

#include <ostream>

#include "analysis_result.h"

namespace collwrap {

// A header row, then one row per entry of result.communication. All fields are numbers, so
// none needs quoting.
void write_matrix_csv(const AnalysisResult& result, std::ostream& out);

}  // namespace collwrap
