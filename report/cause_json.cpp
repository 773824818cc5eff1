#include "cause_json.h"

#include "json_values.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

Json optional_json(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json call_path_json(const std::vector<SourceFrame>& frames) {
  Json list = Json::array();
  for (const SourceFrame& f : frames)
    list.push_back({{"file", text_or_null(f.file)},
                    {"line", line_or_null(f.line)},
                    {"function", text_or_null(f.function)}});
  return list;
}

Json segment_json(const SegmentDescription& s) {
  return {{"file", text_or_null(s.file)},
          {"line", line_or_null(s.line)},
          {"function", text_or_null(s.function)},
          {"mpi_function", s.mpi_function},
          {"start_file", text_or_null(s.start_file)},
          {"start_line", line_or_null(s.start_line)},
          {"start_mpi_function", s.start_mpi_function},
          {"call_path", call_path_json(s.call_path)}};
}

Json caused_waits_json(const std::vector<CausedWait>& waits) {
  Json list = Json::array();
  for (const CausedWait& w : waits)
    list.push_back({{"rank", w.rank},
                    {"thread", w.thread},
                    {"file", text_or_null(w.file)},
                    {"line", line_or_null(w.line)},
                    {"function", text_or_null(w.function)},
                    {"short_term_cost_s", w.short_term_cost_s},
                    {"long_term_cost_s", w.long_term_cost_s}});
  return list;
}

Json root_causes_json(const std::vector<RootCause>& causes) {
  Json list = Json::array();
  for (const RootCause& r : causes)
    list.push_back({{"segment", segment_json(r.segment)},
                    {"rank", r.rank},
                    {"thread", r.thread},
                    {"occurrences", r.occurrences},
                    {"segment_time_s", r.segment_time_s},
                    {"others_mean_time_s", r.others_mean_time_s},
                    {"gain_basis", gain_basis_name(r.gain_basis)},
                    {"target_time_s", r.target_time_s},
                    {"short_term_cost_s", r.short_term_cost_s},
                    {"long_term_cost_s", r.long_term_cost_s},
                    {"gain_s", optional_json(r.gain_s)},
                    {"gain_percent", optional_json(r.gain_percent)},
                    {"caused_waits", caused_waits_json(r.caused_waits)}});
  return list;
}

Json critical_path_json(const CriticalPathSummary& cp) {
  Json segments = Json::array(), sites = Json::array();
  for (const CriticalPathSegment& s : cp.segments)
    segments.push_back({{"segment", segment_json(s.segment)},
                        {"time_s", s.time_s},
                        {"share", s.share},
                        {"mean_per_rank_s", s.mean_per_rank_s},
                        {"imbalance_s", s.imbalance_s}});
  for (const CriticalPathCallSite& s : cp.call_sites)
    sites.push_back({{"mpi_function", s.mpi_function},
                     {"file", text_or_null(s.file)},
                     {"line", line_or_null(s.line)},
                     {"time_s", s.time_s},
                     {"share", s.share}});
  return {{"length_s", cp.length_s}, {"hops", cp.hops},      {"compute_s", cp.compute_s},
          {"mpi_s", cp.mpi_s},       {"segments", segments}, {"call_sites", sites}};
}

Json pop_json(const PopEfficiencies& p) {
  Json ranks = Json::array();
  for (const PopRank& r : p.ranks)
    ranks.push_back({{"rank", r.rank}, {"useful_s", r.useful_s}, {"mpi_s", r.mpi_s}});
  return {{"region", p.region},
          {"runtime_s", p.runtime_s},
          {"ideal_runtime_s", p.ideal_runtime_s},
          {"mean_useful_s", p.mean_useful_s},
          {"max_useful_s", p.max_useful_s},
          {"parallel_efficiency", p.parallel_efficiency},
          {"load_balance", p.load_balance},
          {"communication_efficiency", p.communication_efficiency},
          {"serialization_efficiency", p.serialization_efficiency},
          {"transfer_efficiency", p.transfer_efficiency},
          {"ranks", ranks}};
}

Json what_if_json(const std::vector<WhatIfResult>& answers) {
  Json list = Json::array();
  for (const WhatIfResult& w : answers)
    list.push_back({{"spec", w.spec},
                    {"rank", w.rank < 0 ? Json(nullptr) : Json(w.rank)},
                    {"file", w.file},
                    {"line", w.line},
                    {"scale", w.scale},
                    {"segments_changed", w.segments_changed},
                    {"runtime_s", w.runtime_s},
                    {"gain_s", w.gain_s},
                    {"gain_percent", w.gain_percent}});
  return list;
}

}  // namespace

void add_cause_json(const CauseAnalysis& c, nlohmann::ordered_json& report) {
  report["root_causes"] = root_causes_json(c.root_causes);
  report["delay"] = {{"waits", c.delay.waits},
                     {"total_wait_s", c.delay.total_wait_s},
                     {"attributed_s", c.delay.attributed_s},
                     {"residual_s", c.delay.residual_s},
                     {"replay_runtime_s", c.replay_runtime_s},
                     {"broken_dependencies", c.broken_dependencies}};
  report["critical_path"] = critical_path_json(c.critical_path);
  report["pop"] = pop_json(c.pop);
  report["what_if"] = what_if_json(c.what_ifs);
}

}  // namespace collwrap
