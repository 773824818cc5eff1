// The SARIF 2.1.0 log (--sarif): every finding as a result that code-scanning tools and
// editors show at its source line. One run, tool "collwrap", one rule per selected pattern,
// and the rule "root_cause" for the root causes (sarif_causes.h) when they were analyzed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "analysis_result.h"

namespace collwrap {

nlohmann::ordered_json sarif_json(const AnalysisResult& result);

// Writes the log, indented, followed by a newline.
void write_sarif(const AnalysisResult& result, std::ostream& out);

// A file path as a URI reference (RFC 3986): absolute paths become file:///…, relative ones
// stay relative; every byte outside the unreserved set and '/' is percent-encoded.
std::string file_uri(std::string_view path);

// A SARIF physicalLocation: the file's URI and, when known (line > 0), the line.
nlohmann::ordered_json physical_location_json(const std::string& file, std::uint32_t line);

}  // namespace collwrap
