#include "html_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "catalog.h"
#include "html_heatmap.h"
#include "html_template.h"
#include "json_report.h"
#include "markup_escape.h"
#include "result_units.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

// Text from the trace need not be UTF-8: invalid bytes become U+FFFD rather than an error.
std::string script_json(const Json& value) {
  return script_safe_json(value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// A JSON array of numbers, streamed: a timeline has up to --timeline-max-events calls.
template <class Values, class Value>
void write_numbers(std::ostream& out, const Values& values, Value value) {
  out << '[';
  bool first = true;
  for (const auto& v : values) {
    out << (first ? "" : ",") << value(v);
    first = false;
  }
  out << ']';
}

// The critical path's pieces that overlap the window, clipped to it: track, from_ns, to_ns.
void write_critical_path_data(const std::vector<CriticalPathPiece>& path, TimeNs start, TimeNs end,
                              std::ostream& out) {
  std::vector<CriticalPathPiece> shown;
  for (const CriticalPathPiece& p : path)
    if (p.to >= start && p.from <= end)
      shown.push_back({p.loc, std::max(p.from, start), std::min(p.to, end)});
  out << "{\"track\":";
  write_numbers(out, shown, [](const CriticalPathPiece& p) { return p.loc; });
  out << ",\n\"from_ns\":";
  write_numbers(out, shown, [](const CriticalPathPiece& p) { return p.from; });
  out << ",\n\"to_ns\":";
  write_numbers(out, shown, [](const CriticalPathPiece& p) { return p.to; });
  out << '}';
}

// The timeline part of the page's data: tracks (locations), the calls of the window as
// columns (track, function, site, enter_ns, leave_ns; site −1 = unknown) and the messages
// between them (indexes into the calls), and the critical path's pieces.
TimelineCounts write_timeline_data(const Trace& trace, const Matching& matching,
                                   const AnalysisResult& result, const TimelineOptions& options,
                                   std::ostream& out) {
  const TimelineSelection selection = select_timeline(trace, matching, options);
  const std::vector<TimelineCall>& calls = selection.calls;

  Json tracks = Json::array();
  for (const Location& l : trace.locations)
    tracks.push_back({{"rank", l.rank}, {"thread", l.thread}, {"node", node_name(trace, l)}});
  // Functions and sites are numbered in order of first use, so the page only holds the ones
  // it shows.
  std::unordered_map<std::uint32_t, std::uint32_t> function_index, site_index;
  Json functions = Json::array(), sites = Json::array();
  std::vector<std::uint32_t> function(calls.size());
  std::vector<std::int64_t> site(calls.size(), -1);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const Location& l = trace.locations[calls[i].loc];
    const std::uint32_t region = l.call_region[calls[i].call];
    const auto [f, new_function] = function_index.try_emplace(region, functions.size());
    if (new_function) functions.push_back(trace.regions[region].name);
    function[i] = f->second;
    if (const std::uint32_t callsite = l.call_callsite[calls[i].call]; callsite != kNone) {
      const auto [s, new_site] = site_index.try_emplace(callsite, sites.size());
      if (new_site) sites.push_back(call_site_text(trace, callsite));
      site[i] = s->second;
    }
  }
  const auto enter = [&](const TimelineCall& c) {
    return trace.locations[c.loc].call_enter[c.call];
  };
  const auto leave = [&](const TimelineCall& c) {
    return trace.locations[c.loc].call_leave[c.call];
  };

  const TimeNs start = std::clamp(options.start, trace.begin, trace.end);
  const TimeNs end = std::clamp(options.end, start, trace.end);
  out << "{\"window\":{\"start_s\":" << Json(seconds(start - trace.begin)).dump()
      << ",\"end_s\":" << Json(seconds(end - trace.begin)).dump()
      << "},\"max_calls\":" << options.max_calls << ",\"calls_dropped\":" << selection.calls_dropped
      << ",\n\"tracks\":" << script_json(tracks) << ",\n\"functions\":" << script_json(functions)
      << ",\n\"sites\":" << script_json(sites) << ",\n\"calls\":{\"track\":";
  write_numbers(out, calls, [](const TimelineCall& c) { return c.loc; });
  out << ",\n\"function\":";
  write_numbers(out, function, [](std::uint32_t f) { return f; });
  out << ",\n\"site\":";
  write_numbers(out, site, [](std::int64_t s) { return s; });
  out << ",\n\"enter_ns\":";
  write_numbers(out, calls, enter);
  out << ",\n\"leave_ns\":";
  write_numbers(out, calls, leave);
  out << "},\n\"messages\":{\"from\":";
  write_numbers(out, selection.messages, [](const TimelineMessage& m) { return m.from; });
  out << ",\n\"to\":";
  write_numbers(out, selection.messages, [](const TimelineMessage& m) { return m.to; });
  out << ",\n\"bytes\":";
  write_numbers(out, selection.messages, [&](const TimelineMessage& m) {
    const OpRef send = matching.messages[m.message].send;
    return trace.locations[send.loc].bytes_sent(send.op);
  });
  // Without root causes (--no-causes) there is no critical path to draw.
  out << "},\n\"critical_path\":";
  if (result.causes)
    write_critical_path_data(result.causes->critical_path_pieces, start, end, out);
  else
    out << "null";
  out << '}';
  return {calls.size(), selection.calls_dropped, selection.messages.size()};
}

void write_data(const Trace& trace, const Matching& matching, const AnalysisResult& result,
                const TimelineOptions& options, TimelineCounts& counts, std::ostream& out) {
  Json catalog = Json::array();
  Json parents = Json::object();
  for (const Pattern* p : pattern_catalog()) {
    catalog.push_back(p->id);
    if (!p->parent.empty()) parents[std::string(p->id)] = p->parent;
  }
  out << "{\"report\":" << script_json(report_json(result))
      << ",\n\"pattern_catalog\":" << script_json(catalog)
      << ",\n\"pattern_parents\":" << script_json(parents)
      << ",\n\"pattern_overlap\":" << script_json(Json(pattern_overlap_note()))
      << ",\n\"timeline\":";
  counts = write_timeline_data(trace, matching, result, options, out);
  out << '}';
}

void write_heatmaps(const AnalysisResult& result, std::ostream& out) {
  if (result.communication.empty()) {
    out << "<p id=\"matrix-empty\">No point-to-point message was matched.</p>";
    return;
  }
  if (result.trace.world_size > kHtmlHeatmapMaxRanks) {
    out << "<p id=\"matrix-too-large\">" << result.trace.world_size
        << " ranks are too many for a heatmap in this page; write it with --matrix-svg FILE, or "
           "the numbers with --matrix-csv FILE.</p>";
    return;
  }
  for (const MatrixQuantity q : {MatrixQuantity::Bytes, MatrixQuantity::MeanTransferTime}) {
    out << "<figure>\n";
    write_matrix_svg(result, q, out);
    out << "</figure>\n";
  }
}

}  // namespace

std::string script_safe_json(std::string_view json) {
  std::string safe;
  safe.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] != '<') {
      safe += json[i];
    } else if (json.substr(i, 2) == "</") {
      safe += "<\\/";
      ++i;
    } else if (json.substr(i, 4) == "<!--") {
      safe += "\\u003c";
    } else {
      safe += '<';
    }
  }
  return safe;
}

TimelineCounts write_html_report(const Trace& trace, const Matching& matching,
                                 const AnalysisResult& result, const TimelineOptions& options,
                                 std::ostream& out) {
  TimelineCounts counts;
  const std::string name = result.trace.program.empty() ? result.trace.path : result.trace.program;
  std::string_view page = kHtmlTemplate;
  // The template is text with slots {{collwrap:NAME}}; each slot is replaced in order.
  static constexpr std::string_view kOpen = "{{collwrap:", kClose = "}}";
  for (std::size_t slot; (slot = page.find(kOpen)) != std::string_view::npos;) {
    out << page.substr(0, slot);
    const std::size_t close = page.find(kClose, slot);
    if (close == std::string_view::npos) throw std::logic_error("html_template.html: open slot");
    const std::string_view key = page.substr(slot + kOpen.size(), close - slot - kOpen.size());
    if (key == "title")
      out << "collwrap report: " << escape_markup(name);
    else if (key == "style")
      out << kHtmlStyle;
    else if (key == "script")
      out << kHtmlScript;
    else if (key == "heatmaps")
      write_heatmaps(result, out);
    else if (key == "data")
      write_data(trace, matching, result, options, counts, out);
    else
      throw std::logic_error("html_template.html: unknown slot " + std::string(key));
    page.remove_prefix(close + kClose.size());
  }
  out << page;
  return counts;
}

}  // namespace collwrap
