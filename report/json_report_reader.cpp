#include "json_report_reader.h"

#include <string>

namespace collwrap {
namespace {

using Json = nlohmann::json;

// Unknown strings and line numbers are null in the report (json_report.cpp); "" and 0 here.
std::string text_of(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? std::string() : it->get<std::string>();
}
std::uint32_t line_of(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? 0 : it->get<std::uint32_t>();
}
template <class T>
T value_of(const Json& j, const char* key, T fallback = T{}) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}
std::optional<double> optional_of(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<double>();
}

Finding finding_of(const Json& j) {
  Finding f;
  f.pattern = j.at("pattern").get<std::string>();
  f.rank = j.at("rank").get<std::int32_t>();
  f.thread = value_of<std::int32_t>(j, "thread");
  f.node = text_of(j, "node");
  f.file = text_of(j, "file");
  f.line = line_of(j, "line");
  f.function = text_of(j, "function");
  f.mpi_function = text_of(j, "mpi_function");
  f.peers = value_of<std::vector<std::int32_t>>(j, "peers");
  f.peer_threads = value_of<PeerThreads>(j, "peer_threads");  // absent before schema 1.7
  f.occurrences = value_of<std::uint64_t>(j, "occurrences");
  f.wait_time_s = j.at("wait_time_s").get<double>();
  f.max_wait_s = value_of<double>(j, "max_wait_s");
  f.comment = text_of(j, "comment");
  f.recommendation = text_of(j, "recommendation");
  return f;
}

SegmentDescription segment_of(const Json& j) {
  SegmentDescription s{.file = text_of(j, "file"),
                       .line = line_of(j, "line"),
                       .function = text_of(j, "function"),
                       .mpi_function = text_of(j, "mpi_function"),
                       .start_file = text_of(j, "start_file"),
                       .start_line = line_of(j, "start_line"),
                       .start_mpi_function = text_of(j, "start_mpi_function"),
                       .call_path = {}};
  if (const auto path = j.find("call_path"); path != j.end() && path->is_array())  // since 1.6
    for (const Json& f : *path)
      s.call_path.push_back({text_of(f, "file"), line_of(f, "line"), text_of(f, "function")});
  return s;
}

RootCause root_cause_of(const Json& j) {
  RootCause r;
  r.segment = segment_of(j.at("segment"));
  r.rank = j.at("rank").get<std::int32_t>();
  r.thread = value_of<std::int32_t>(j, "thread");
  r.occurrences = value_of<std::uint64_t>(j, "occurrences");
  r.segment_time_s = value_of<double>(j, "segment_time_s");
  r.others_mean_time_s = value_of<double>(j, "others_mean_time_s");
  r.short_term_cost_s = value_of<double>(j, "short_term_cost_s");
  r.long_term_cost_s = value_of<double>(j, "long_term_cost_s");
  r.gain_s = optional_of(j, "gain_s");
  r.gain_percent = optional_of(j, "gain_percent");
  r.gain_basis = gain_basis_of(text_of(j, "gain_basis"));  // since 1.5
  r.target_time_s = value_of<double>(j, "target_time_s");
  return r;
}

PopEfficiencies pop_of(const Json& j) {
  PopEfficiencies p;
  p.region = text_of(j, "region");
  p.runtime_s = value_of<double>(j, "runtime_s");
  p.ideal_runtime_s = value_of<double>(j, "ideal_runtime_s");
  p.mean_useful_s = value_of<double>(j, "mean_useful_s");
  p.max_useful_s = value_of<double>(j, "max_useful_s");
  p.parallel_efficiency = value_of<double>(j, "parallel_efficiency");
  p.load_balance = value_of<double>(j, "load_balance");
  p.communication_efficiency = value_of<double>(j, "communication_efficiency");
  p.serialization_efficiency = value_of<double>(j, "serialization_efficiency");
  p.transfer_efficiency = value_of<double>(j, "transfer_efficiency");
  for (const Json& r : j.value("ranks", Json::array()))
    p.ranks.push_back({.rank = r.at("rank").get<std::int32_t>(),
                       .useful_s = value_of<double>(r, "useful_s"),
                       .mpi_s = value_of<double>(r, "mpi_s")});
  return p;
}

void read_summary(const Json& j, Summary& s) {
  s.total_time_s = value_of<double>(j, "total_time_s");
  s.total_mpi_time_s = value_of<double>(j, "total_mpi_time_s");
  s.findings = value_of<std::uint64_t>(j, "findings");
  s.instances = value_of<std::uint64_t>(j, "instances");
  for (const Json& p : j.value("patterns", Json::array()))
    s.patterns.push_back({.pattern = p.at("pattern").get<std::string>(),
                          .description = text_of(p, "description"),
                          .findings = value_of<std::uint64_t>(p, "findings"),
                          .occurrences = value_of<std::uint64_t>(p, "occurrences"),
                          .wait_time_s = value_of<double>(p, "wait_time_s"),
                          .percent_of_total_time = value_of<double>(p, "percent_of_total_time")});
  s.warnings = value_of<std::vector<std::string>>(j, "warnings");
  if (const auto options = j.find("options"); options != j.end())
    s.options.patterns = value_of<std::vector<std::string>>(*options, "patterns");
}

}  // namespace

AnalysisResult read_json_report(const Json& report) {
  if (!report.is_object() || !report.contains("schema_version") || !report.contains("findings"))
    throw ReportReadError("not a collwrap report (no schema_version and findings)");
  AnalysisResult result;
  result.schema_version = report.at("schema_version").get<std::string>();
  if (!result.schema_version.starts_with("1."))
    throw ReportReadError("report schema " + result.schema_version +
                          " is newer than this analyzer reads (1.x); use a newer analyzer");
  try {
    result.tool_version = text_of(report, "tool_version");
    const Json& t = report.at("trace");
    result.trace.path = text_of(t, "path");
    result.trace.program = text_of(t, "program");
    result.trace.world_size = t.at("world_size").get<std::int32_t>();
    result.trace.locations = value_of<std::uint32_t>(t, "locations");
    result.trace.duration_s = value_of<double>(t, "duration_s");
    result.trace.events = value_of<std::uint64_t>(t, "events");
    for (const Json& r : report.value("ranks", Json::array()))
      result.ranks.push_back({.rank = r.at("rank").get<std::int32_t>(),
                              .node = text_of(r, "node"),
                              .threads = value_of<std::uint32_t>(r, "threads"),
                              .time_s = value_of<double>(r, "time_s"),
                              .mpi_time_s = value_of<double>(r, "mpi_time_s")});
    for (const Json& f : report.at("findings")) result.findings.push_back(finding_of(f));
    read_summary(report.at("summary"), result.summary);
    for (const Json& o : report.value("operations", Json::array()))
      result.operations.push_back(
          {.function = o.at("function").get<std::string>(),
           .bytes_min = value_of<std::uint64_t>(o, "bytes_min"),
           .bytes_max = value_of<std::uint64_t>(o, "bytes_max"),
           .count = value_of<std::uint64_t>(o, "count"),
           .total_s = value_of<double>(o, "total_s"),
           .mean_s = value_of<double>(o, "mean_s"),
           .min_s = value_of<double>(o, "min_s"),
           .max_s = value_of<double>(o, "max_s"),
           .percent_of_mpi_time = value_of<double>(o, "percent_of_mpi_time")});
    if (report.contains("root_causes") || report.contains("pop")) {
      CauseAnalysis& c = result.causes.emplace();
      for (const Json& r : report.value("root_causes", Json::array()))
        c.root_causes.push_back(root_cause_of(r));
      if (const auto pop = report.find("pop"); pop != report.end() && pop->is_object())
        c.pop = pop_of(*pop);
    }
  } catch (const Json::exception& e) {
    throw ReportReadError(std::string("a field of the report is missing or of the wrong type: ") +
                          e.what());
  }
  return result;
}

AnalysisResult read_json_report(std::istream& in) {
  Json report;
  try {
    report = Json::parse(in);
  } catch (const Json::parse_error& e) {
    throw ReportReadError(std::string("not JSON: ") + e.what());
  }
  return read_json_report(report);
}

}  // namespace collwrap
