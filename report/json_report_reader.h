// Reading a JSON report of ours (json_report.h writes it) back into the results model, so that
// `analyzer compare` treats a saved report like a freshly analyzed archive. Only the parts that a
// comparison reads are filled: trace, ranks, findings, summary (times, pattern totals, selected
// patterns), operations, root causes and POP efficiencies (schema 1.4; absent parts stay empty).
#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis_result.h"

namespace collwrap {

// A report that is not JSON, not ours, or of a major schema version this build cannot read.
// what() says which field is wrong.
struct ReportReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

AnalysisResult read_json_report(const nlohmann::json& report);
AnalysisResult read_json_report(std::istream& in);

}  // namespace collwrap
