#include "compare_json.h"

#include "finding_matching.h"
#include "json_values.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

Json change_json(const Change& c) {
  const std::optional<double> percent = c.percent();
  return {{"base", c.base},
          {"new", c.current},
          {"change", c.delta()},
          {"percent", percent ? Json(*percent) : Json(nullptr)}};
}

Json findings_json(const std::vector<FindingChange>& changes) {
  Json list = Json::array();
  for (const FindingChange& c : changes)
    list.push_back({{"status", finding_status_name(c.status)},
                    {"pattern", c.pattern},
                    {"rank", c.rank == kAllRanks ? Json(nullptr) : Json(c.rank)},
                    {"file", text_or_null(c.file)},
                    {"line", line_or_null(c.line)},
                    {"base_line", line_or_null(c.base_line)},
                    {"function", text_or_null(c.function)},
                    {"mpi_function", c.mpi_function},
                    {"wait_time_s", change_json(c.wait_s)},
                    {"occurrences", change_json(c.occurrences)}});
  return list;
}

Json named_json(const std::vector<NamedChange>& changes, const char* key) {
  Json list = Json::array();
  for (const NamedChange& c : changes) {
    Json item = {{key, c.name}};
    item.update(change_json(c.value));
    list.push_back(std::move(item));
  }
  return list;
}

Json root_causes_json(const std::vector<RootCauseChange>& changes) {
  Json list = Json::array();
  for (const RootCauseChange& c : changes)
    list.push_back({{"status", finding_status_name(c.status)},
                    {"rank", c.rank},
                    {"file", text_or_null(c.file)},
                    {"line", line_or_null(c.line)},
                    {"function", text_or_null(c.function)},
                    {"mpi_function", c.mpi_function},
                    {"cost_s", change_json(c.cost_s)}});
  return list;
}

Json comparison_json(const RunComparison& c) {
  Json pop = nullptr;
  if (!c.pop.empty()) {
    pop = Json::object();
    pop["region"] = *c.base.pop_region;
    for (const NamedChange& p : c.pop) pop[p.name] = change_json(p.value);
  }
  return {{"base", c.base.label},
          {"new", c.current.label},
          {"run_time_s", change_json(c.run_time_s)},
          {"mpi_time_s", change_json(c.mpi_time_s)},
          {"total_wait_s", change_json(c.total_wait_s)},
          {"call_sites", findings_json(c.sites)},
          {"per_rank", findings_json(c.per_rank)},
          {"patterns", named_json(c.patterns, "pattern")},
          {"operations", named_json(c.operations, "function")},
          {"root_causes", root_causes_json(c.root_causes)},
          {"pop", pop},
          {"not_compared", c.not_compared}};
}

Json scaling_json(const ScalingStudy& s) {
  Json rows = Json::array();
  for (const ScalingRow& r : s.rows)
    rows.push_back({{"run", r.point.label},
                    {"ranks", r.point.ranks},
                    {"runtime_s", r.point.runtime_s},
                    {"total_useful_s", r.point.total_useful_s},
                    {"speedup", r.speedup},
                    {"ideal_speedup", r.ideal_speedup},
                    {"global_efficiency", r.global_efficiency},
                    {"parallel_efficiency", r.point.parallel_efficiency},
                    {"load_balance", r.point.load_balance},
                    {"communication_efficiency", r.point.communication_efficiency},
                    {"computational_scaling", r.computational_scaling}});
  return {{"rows", rows}, {"not_compared", s.not_compared}};
}

Json verdicts_json(const std::vector<ThresholdVerdict>& verdicts) {
  Json list = Json::array();
  for (const ThresholdVerdict& v : verdicts)
    list.push_back({{"subject", v.threshold.subject},
                    {"percent", v.threshold.percent},
                    {"base", v.base_label},
                    {"new", v.current_label},
                    {"comparable", v.comparable},
                    {"wait_time_s", change_json(v.wait_s)},
                    {"crossed", v.crossed}});
  return list;
}

}  // namespace

nlohmann::ordered_json compare_json(const CompareReport& report) {
  Json runs = Json::array();
  for (const RunFacts& r : report.runs)
    runs.push_back({{"label", r.label},
                    {"program", text_or_null(r.program)},
                    {"ranks", r.ranks},
                    {"pop_region", r.pop_region ? Json(*r.pop_region) : Json(nullptr)}});
  Json comparisons = Json::array();
  for (const RunComparison& c : report.comparisons) comparisons.push_back(comparison_json(c));
  return {{"schema_version", kCompareSchemaVersion},
          {"runs", runs},
          {"comparisons", comparisons},
          {"scaling", report.scaling ? scaling_json(*report.scaling) : Json(nullptr)},
          {"thresholds", verdicts_json(report.verdicts)},
          {"worse", report.worse()}};
}

void write_compare_json(const CompareReport& report, std::ostream& out) {
  out << compare_json(report).dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace collwrap
