// The SARIF 2.1.0 log (--sarif): every finding as a result that code-scanning tools and
// editors show at its source line. One run, tool "collwrap", one rule per selected pattern.
#pragma once

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

}  // namespace collwrap
