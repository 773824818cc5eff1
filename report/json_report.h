// The JSON report (layout in share/schema/report.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis_result.h"

namespace collwrap {

nlohmann::ordered_json report_json(const AnalysisResult& result);

// Writes the report, indented, followed by a newline.
void write_json_report(const AnalysisResult& result, std::ostream& out);

}  // namespace collwrap
