#include "json_report.h"

#include "cause_json.h"
#include "json_values.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

Json details_json(const FindingDetails& d) {
  Json j = Json::object();
  if (!d.send_modes.empty()) {
    Json modes = Json::object();
    for (const auto& [mode, count] : d.send_modes) modes[mode] = count;
    j["send_modes"] = modes;
  }
  if (d.same_source + d.different_source > 0)
    j["message_order"] = {{"same_source", d.same_source}, {"different_source", d.different_source}};
  if (d.optimal_distance_s) j["optimal_distance_s"] = *d.optimal_distance_s;
  if (d.current_distance_s) j["current_distance_s"] = *d.current_distance_s;
  if (d.related_call)
    j["related_call"] = {{"mpi_function", d.related_call->function},
                         {"file", text_or_null(d.related_call->file)},
                         {"line", line_or_null(d.related_call->line)}};
  return j;
}

Json finding_json(const Finding& f) {
  Json top = Json::array();
  for (const InstanceSample& s : f.top_instances)
    top.push_back({{"time_s", s.time_s},
                   {"wait_s", s.wait_s},
                   {"peers", s.peers},
                   {"peer_threads", s.peer_threads}});
  return {{"pattern", f.pattern},
          {"rank", f.rank},
          {"thread", f.thread},
          {"node", f.node},
          {"file", text_or_null(f.file)},
          {"line", line_or_null(f.line)},
          {"function", text_or_null(f.function)},
          {"mpi_function", f.mpi_function},
          {"peers", f.peers},
          {"peer_threads", f.peer_threads},
          {"occurrences", f.occurrences},
          {"wait_time_s", f.wait_time_s},
          {"max_wait_s", f.max_wait_s},
          {"comment", f.comment},
          {"recommendation", f.recommendation},
          {"details", details_json(f.details)},
          {"top_instances", top}};
}

Json trace_json(const TraceInfo& t) {
  return {{"path", t.path},
          {"program", text_or_null(t.program)},
          {"world_size", t.world_size},
          {"locations", t.locations},
          {"nodes", t.nodes},
          {"communicators", t.communicators},
          {"duration_s", t.duration_s},
          {"events", t.events}};
}

Json ranks_json(const std::vector<RankSummary>& ranks) {
  Json j = Json::array();
  for (const RankSummary& r : ranks)
    j.push_back({{"rank", r.rank},
                 {"node", r.node},
                 {"threads", r.threads},
                 {"time_s", r.time_s},
                 {"mpi_time_s", r.mpi_time_s}});
  return j;
}

Json summary_json(const Summary& s) {
  Json patterns = Json::array();
  for (const PatternTotal& p : s.patterns)
    patterns.push_back({{"pattern", p.pattern},
                        {"description", p.description},
                        {"findings", p.findings},
                        {"occurrences", p.occurrences},
                        {"wait_time_s", p.wait_time_s},
                        {"percent_of_total_time", p.percent_of_total_time}});
  const MatchSummary& m = s.matching;
  const ClockSummary& c = s.clock;
  const OptionsSummary& o = s.options;
  return {{"total_time_s", s.total_time_s},
          {"total_mpi_time_s", s.total_mpi_time_s},
          {"findings", s.findings},
          {"instances", s.instances},
          {"instances_below_min_wait", s.instances_below_min_wait},
          {"patterns", patterns},
          {"matching",
           {{"messages", m.messages},
            {"collectives", m.collectives},
            {"unmatched_sends", m.unmatched_sends},
            {"unmatched_receives", m.unmatched_receives},
            {"incomplete_collectives", m.incomplete_collectives},
            {"unmatched_requests", m.unmatched_requests},
            {"mismatched_collectives", m.mismatched_collectives},
            {"invalid_ops", m.invalid_ops}}},
          {"clock",
           {{"violations", c.violations},
            {"violations_before_repair", c.violations_before_repair},
            {"violations_after_repair", c.violations_after_repair},
            {"max_repair_shift_s", c.max_repair_shift_s},
            {"offsets_per_location_min", c.offsets_per_location_min},
            {"max_offset_stddev_s", c.max_offset_stddev_s}}},
          {"warning_count", s.warnings.size()},
          {"warnings", s.warnings},
          {"options",
           {{"patterns", o.patterns},
            {"eager_threshold_bytes",
             o.eager_threshold_bytes ? Json(*o.eager_threshold_bytes) : Json(nullptr)},
            {"min_wait_s", o.min_wait_s},
            {"sendrecv_window_s", o.sendrecv_window_s}}}};
}

Json communication_json(const std::vector<CommPair>& cells) {
  Json out = Json::array();
  for (const CommPair& c : cells)
    out.push_back({{"sender", c.sender},
                   {"receiver", c.receiver},
                   {"messages", c.messages},
                   {"bytes", c.bytes},
                   {"transfer_min_s", c.transfer_min_s},
                   {"transfer_max_s", c.transfer_max_s},
                   {"transfer_median_s", c.transfer_median_s},
                   {"transfer_mean_s", c.transfer_mean_s},
                   {"transfer_stddev_s", c.transfer_stddev_s}});
  return out;
}

Json operations_json(const std::vector<OperationStats>& operations) {
  Json out = Json::array();
  for (const OperationStats& o : operations)
    out.push_back({{"function", o.function},
                   {"bytes_min", o.bytes_min},
                   {"bytes_max", o.bytes_max},
                   {"count", o.count},
                   {"total_s", o.total_s},
                   {"mean_s", o.mean_s},
                   {"min_s", o.min_s},
                   {"max_s", o.max_s},
                   {"percent_of_mpi_time", o.percent_of_mpi_time}});
  return out;
}

Json grains_json(const std::vector<GrainDistribution>& grains) {
  Json out = Json::array();
  for (const GrainDistribution& g : grains) {
    Json histogram = Json::array();
    for (const GrainBin& b : g.histogram)
      histogram.push_back({{"low_s", b.low_s},
                           {"high_s", b.high_s ? Json(*b.high_s) : Json(nullptr)},
                           {"count", b.count},
                           {"total_s", b.total_s}});
    out.push_back({{"rank", g.rank},
                   {"thread", g.thread},
                   {"count", g.count},
                   {"total_s", g.total_s},
                   {"min_s", g.min_s},
                   {"median_s", g.median_s},
                   {"mean_s", g.mean_s},
                   {"max_s", g.max_s},
                   {"histogram", histogram}});
  }
  return out;
}

Json noise_json(const NoisePrediction& n) {
  return {
      {"file", n.file},
      {"noise_ranks", n.noise_ranks},
      {"processes", n.processes},
      {"metric_processes", n.metric_processes},
      {"noise_coverage", n.noise_coverage},
      {"noise_synchronicity", n.noise_synchronicity},
      {"grains", n.grains},
      {"compute_s", n.compute_s},
      {"delay_s", n.delay_s},
      {"wait_s", n.wait_s},
      {"observed_wait_s", n.observed_wait_s},
      {"explained_fraction", n.explained_fraction ? Json(*n.explained_fraction) : Json(nullptr)}};
}

}  // namespace

nlohmann::ordered_json report_json(const AnalysisResult& result) {
  Json findings = Json::array();
  for (const Finding& f : result.findings) findings.push_back(finding_json(f));
  Json report = {{"schema_version", result.schema_version},
                 {"tool_version", result.tool_version},
                 {"trace", trace_json(result.trace)},
                 {"ranks", ranks_json(result.ranks)},
                 {"findings", findings},
                 {"summary", summary_json(result.summary)},
                 {"communication", communication_json(result.communication)},
                 {"operations", operations_json(result.operations)},
                 {"grains", grains_json(result.grains)}};
  if (result.noise) report["noise"] = noise_json(*result.noise);
  if (result.causes) add_cause_json(*result.causes, report);
  return report;
}

void write_json_report(const AnalysisResult& result, std::ostream& out) {
  // File names and host names come from the system: never fail on bytes that are not UTF-8.
  out << report_json(result).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
      << '\n';
}

}  // namespace collwrap
