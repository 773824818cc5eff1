#include "sarif_writer.h"

#include <cstdio>

#include "sarif_causes.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";

Json rules_json(const std::vector<PatternTotal>& patterns) {
  Json rules = Json::array();
  for (const PatternTotal& p : patterns)
    rules.push_back({{"id", p.pattern},
                     {"name", p.pattern},
                     {"shortDescription", {{"text", p.description}}},
                     {"fullDescription", {{"text", p.description}}},
                     {"defaultConfiguration", {{"level", "warning"}}}});
  return rules;
}

// Rules are referenced by index as well as id so viewers need not search them.
int rule_index(const std::vector<PatternTotal>& patterns, const std::string& id) {
  for (std::size_t i = 0; i < patterns.size(); ++i)
    if (patterns[i].pattern == id) return static_cast<int>(i);
  return -1;
}

Json location_json(const Finding& f) {
  Json location = {{"physicalLocation", physical_location_json(f.file, f.line)}};
  if (!f.function.empty())
    location["logicalLocations"] = Json::array({{{"name", f.function}, {"kind", "function"}}});
  return location;
}

Json result_json(const Finding& f, const std::vector<PatternTotal>& patterns) {
  Json r = {{"ruleId", f.pattern}};
  if (const int index = rule_index(patterns, f.pattern); index >= 0) r["ruleIndex"] = index;
  r["level"] = "warning";
  r["message"] = {{"text", f.comment + " " + f.recommendation}};
  // A finding without a recorded file (no debug information) has nowhere to point; SARIF
  // allows a result without locations.
  r["locations"] = f.file.empty() ? Json::array() : Json::array({location_json(f)});
  r["properties"] = {{"wait_time_s", f.wait_time_s},
                     {"max_wait_s", f.max_wait_s},
                     {"occurrences", f.occurrences},
                     {"rank", f.rank},
                     {"thread", f.thread},
                     {"node", f.node},
                     {"mpi_function", f.mpi_function},
                     {"peers", f.peers},
                     {"peer_threads", f.peer_threads}};
  return r;
}

bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~' || c == '/';
}

}  // namespace

std::string file_uri(std::string_view path) {
  std::string uri = path.starts_with('/') ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c)) {
      uri += ch;
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri;
}

nlohmann::ordered_json physical_location_json(const std::string& file, std::uint32_t line) {
  Json physical = {{"artifactLocation", {{"uri", file_uri(file)}}}};
  if (line > 0) physical["region"] = {{"startLine", line}};
  return physical;
}

nlohmann::ordered_json sarif_json(const AnalysisResult& result) {
  const std::vector<PatternTotal>& patterns = result.summary.patterns;
  Json results = Json::array();
  for (const Finding& f : result.findings) results.push_back(result_json(f, patterns));
  Json rules = rules_json(patterns);
  if (result.causes) {
    for (Json& r : root_cause_results_json(*result.causes, static_cast<int>(rules.size())))
      results.push_back(std::move(r));
    rules.push_back(root_cause_rule_json());
  }
  Json driver = {{"name", "collwrap"}, {"version", result.tool_version}, {"rules", rules}};
  Json run = {{"tool", {{"driver", driver}}},
              {"results", results},
              {"properties", {{"trace", result.trace.path}, {"program", result.trace.program}}}};
  return {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", Json::array({run})}};
}

void write_sarif(const AnalysisResult& result, std::ostream& out) {
  // Paths and host names come from the system: never fail on bytes that are not UTF-8.
  out << sarif_json(result).dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace collwrap
