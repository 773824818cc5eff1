#include "sarif_causes.h"

#include <cstdio>
#include <string>

#include "sarif_writer.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", s);
  return text;
}

std::string place(const std::string& file, std::uint32_t line) {
  if (file.empty()) return "an unknown line";
  const std::size_t slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

std::string message(const RootCause& r) {
  const SegmentDescription& s = r.segment;
  const bool across_ranks = r.gain_basis == GainBasis::RanksMean;
  std::string text = (across_ranks ? "The compute segment, imbalanced across ranks (most on rank "
                                   : "The compute segment on rank ") +
                     std::to_string(r.rank) + (across_ranks ? ")" : "") + " from " +
                     place(s.start_file, s.start_line) + " (" + s.start_mpi_function + ") to " +
                     place(s.file, s.line) + " (" + s.mpi_function + ") made other ranks wait " +
                     seconds_text(r.short_term_cost_s) + " directly and " +
                     seconds_text(r.long_term_cost_s) + " through their own waits.";
  if (r.gain_s)
    text += std::string(across_ranks ? " Balancing it across the ranks"
                                     : " Cutting it to the other ranks' mean") +
            " would end the run about " + seconds_text(*r.gain_s) + " earlier.";
  return text;
}

Json related_locations(const RootCause& r) {
  Json list = Json::array();
  for (const CausedWait& w : r.caused_waits) {
    if (w.file.empty()) continue;
    Json location = {{"id", list.size()},
                     {"physicalLocation", physical_location_json(w.file, w.line)}};
    location["message"] = {{"text", "rank " + std::to_string(w.rank) + " waits here: " +
                                        seconds_text(w.short_term_cost_s) + " directly, " +
                                        seconds_text(w.long_term_cost_s) + " propagated"}};
    list.push_back(std::move(location));
  }
  return list;
}

// SARIF's stack: the ending call, then its callers (COLLWRAP_CALLSITE_DEPTH > 1).
Json call_stacks(const SegmentDescription& s) {
  if (s.call_path.empty() || s.file.empty()) return Json::array();
  Json frames =
      Json::array({{{"location", {{"physicalLocation", physical_location_json(s.file, s.line)}}}}});
  for (const SourceFrame& f : s.call_path) {
    if (f.file.empty()) break;
    Json location = {{"physicalLocation", physical_location_json(f.file, f.line)}};
    if (!f.function.empty())
      location["logicalLocations"] = Json::array({{{"name", f.function}, {"kind", "function"}}});
    frames.push_back({{"location", std::move(location)}});
  }
  return Json::array({{{"message", {{"text", "call path of the line to change"}}},
                       {"frames", std::move(frames)}}});
}

Json optional_json(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

nlohmann::ordered_json root_cause_rule_json() {
  const char* text =
      "Compute time on one rank that makes other ranks wait (delay analysis after Böhme et al., "
      "ICPP 2010); the result's line ends the segment to shorten.";
  return {{"id", kRootCauseRule},
          {"name", kRootCauseRule},
          {"shortDescription", {{"text", "Root cause of waiting: the line to change"}}},
          {"fullDescription", {{"text", text}}},
          {"defaultConfiguration", {{"level", "warning"}}}};
}

nlohmann::ordered_json root_cause_results_json(const CauseAnalysis& causes, int rule_index) {
  Json results = Json::array();
  for (const RootCause& r : causes.root_causes) {
    Json result = {{"ruleId", kRootCauseRule}, {"ruleIndex", rule_index}, {"level", "warning"}};
    result["message"] = {{"text", message(r)}};
    Json location = {{"physicalLocation", physical_location_json(r.segment.file, r.segment.line)}};
    if (!r.segment.function.empty())
      location["logicalLocations"] =
          Json::array({{{"name", r.segment.function}, {"kind", "function"}}});
    result["locations"] = r.segment.file.empty() ? Json::array() : Json::array({location});
    result["relatedLocations"] = related_locations(r);
    if (Json stacks = call_stacks(r.segment); !stacks.empty()) result["stacks"] = std::move(stacks);
    result["properties"] = {{"rank", r.rank},
                            {"thread", r.thread},
                            {"occurrences", r.occurrences},
                            {"segment_time_s", r.segment_time_s},
                            {"short_term_cost_s", r.short_term_cost_s},
                            {"long_term_cost_s", r.long_term_cost_s},
                            {"gain_s", optional_json(r.gain_s)},
                            {"gain_percent", optional_json(r.gain_percent)}};
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace collwrap
