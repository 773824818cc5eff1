// The HTML report: text from the trace cannot break out of the page (hostile file and function
// names), the embedded JSON parses and holds the analysis result's numbers and the timeline's
// calls and messages, the page loads nothing from the network, and the heatmap input.
#include "html_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "analyze.h"
#include "catalog.h"
#include "every_pattern_trace.h"
#include "html_heatmap.h"
#include "json_report.h"
#include "trace_builder.h"

namespace collwrap::testing {
namespace {

constexpr const char* kHostileFile = "/src/<script>alert(1)</script>.c";
constexpr const char* kHostileFunction = "MPI_</script><script>alert(2)</script><!--";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

struct Page {
  std::string html;
  TimelineCounts counts;
  AnalysisResult result;
};

Page page_of(const Trace& trace, const TimelineOptions& options = {},
             const std::string& patterns = "all") {
  const Matching matching = match_trace(trace);
  Page page;
  page.result = analyze_trace(trace, matching, {{}, select_patterns(patterns)});
  std::ostringstream out;
  page.counts = write_html_report(trace, matching, page.result, options, out);
  page.html = out.str();
  return page;
}

// The text of the JSON block, as the browser reads it: up to the first "</script".
nlohmann::json embedded_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const std::size_t start = html.find(open);
  EXPECT_NE(start, std::string::npos);
  const std::size_t from = start + open.size();
  const std::size_t end = html.find("</script", from);
  EXPECT_NE(end, std::string::npos);
  return nlohmann::json::parse(html.substr(from, end - from));  // throws unless valid JSON
}

// Late sender from rank 1 to rank 0 at a file whose name is markup, plus a call of a
// "function" whose name closes the script element.
Trace hostile_trace() {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 0, 1'000'000, kHostileFile, 7), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 600'000, 700'000, kHostileFile, 9), 0, 0, 8);
  b.call(1, kHostileFunction, 800'000, 900'000, kHostileFile, 11);
  Trace t = b.finish();
  t.program = "<b>app</b>";
  return t;
}

TEST(HtmlReport, HostileNamesCannotLeaveTheirElements) {
  const Page page = page_of(hostile_trace());
  ASSERT_FALSE(page.result.findings.empty());
  ASSERT_EQ(page.result.findings.front().file, kHostileFile);
  // Only the template's own two script elements close. Inside the data block the trace's
  // text cannot end the element ("</") nor switch the parser into its escaped state ("<!--");
  // a "<script" there is plain text to the parser.
  EXPECT_EQ(count(page.html, "</script"), 2u);
  EXPECT_EQ(count(page.html, "<!--"), 1u);  // the template's own comment at the top
  const std::size_t data_start = page.html.find("id=\"report-data\">");
  const std::size_t data_end = page.html.find("</script", data_start);
  ASSERT_NE(data_start, std::string::npos);
  const std::string outside = page.html.substr(0, data_start) + page.html.substr(data_end);
  EXPECT_EQ(count(outside, "<script"), 2u);
  EXPECT_EQ(outside.find("alert("), std::string::npos);
  EXPECT_EQ(page.html.find("<b>app</b>"), std::string::npos);
  // The title is escaped markup; the data keeps the names exactly.
  EXPECT_NE(page.html.find("<title>collwrap report: &lt;b&gt;app&lt;/b&gt;</title>"),
            std::string::npos);
  const nlohmann::json data = embedded_data(page.html);
  EXPECT_EQ(data["report"]["findings"][0]["file"], kHostileFile);
  EXPECT_EQ(data["report"]["trace"]["program"], "<b>app</b>");
  const auto& functions = data["timeline"]["functions"];
  EXPECT_NE(std::find(functions.begin(), functions.end(), kHostileFunction), functions.end());
  const auto& sites = data["timeline"]["sites"];
  EXPECT_NE(std::find(sites.begin(), sites.end(), std::string(kHostileFile) + ":11"), sites.end());
}

TEST(HtmlReport, ScriptSafeJsonKeepsTheValue) {
  const nlohmann::json value = {{"a", "</script><!--<script>"}, {"b", "x < y"}};
  const std::string safe = script_safe_json(value.dump());
  EXPECT_EQ(safe.find("</"), std::string::npos);
  EXPECT_EQ(safe.find("<!--"), std::string::npos);
  EXPECT_NE(safe.find("<\\/script>"), std::string::npos);
  EXPECT_NE(safe.find("x < y"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(safe), value);
}

TEST(HtmlReport, EmbeddedJsonHoldsTheResultsNumbers) {
  const Page page = page_of(every_pattern_trace());
  const nlohmann::json data = embedded_data(page.html);
  // The whole JSON report, value for value (doubles are written to round-trip exactly).
  EXPECT_EQ(data["report"], nlohmann::json::parse(report_json(page.result).dump()));
  const AnalysisResult& r = page.result;
  const auto& report = data["report"];
  EXPECT_EQ(report["summary"]["findings"].get<std::uint64_t>(), r.summary.findings);
  EXPECT_EQ(report["trace"]["world_size"].get<std::int32_t>(), r.trace.world_size);
  EXPECT_EQ(report["trace"]["duration_s"].get<double>(), r.trace.duration_s);
  EXPECT_EQ(report["summary"]["total_mpi_time_s"].get<double>(), r.summary.total_mpi_time_s);
  ASSERT_EQ(report["summary"]["patterns"].size(), r.summary.patterns.size());
  for (std::size_t i = 0; i < r.summary.patterns.size(); ++i) {
    EXPECT_EQ(report["summary"]["patterns"][i]["pattern"], r.summary.patterns[i].pattern);
    EXPECT_EQ(report["summary"]["patterns"][i]["wait_time_s"].get<double>(),
              r.summary.patterns[i].wait_time_s);
  }
  ASSERT_EQ(report["ranks"].size(), r.ranks.size());
  for (std::size_t i = 0; i < r.ranks.size(); ++i)
    EXPECT_EQ(report["ranks"][i]["mpi_time_s"].get<double>(), r.ranks[i].mpi_time_s);
  EXPECT_EQ(report["operations"].size(), r.operations.size());
  EXPECT_EQ(report["communication"].size(), r.communication.size());
  // Colours follow the catalog.
  ASSERT_EQ(data["pattern_catalog"].size(), pattern_catalog().size());
  EXPECT_EQ(data["pattern_catalog"][0], pattern_catalog()[0]->id);
}

TEST(HtmlReport, FindingsCarryTheirSortKeysWorstFirst) {
  const Page page = page_of(every_pattern_trace());
  const nlohmann::json findings = embedded_data(page.html)["report"]["findings"];
  ASSERT_EQ(findings.size(), page.result.findings.size());
  ASSERT_GE(findings.size(), 2u);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto& f = findings[i];
    for (const char* key : {"rank", "occurrences", "wait_time_s", "max_wait_s", "line"})
      EXPECT_TRUE(f[key].is_number()) << key;
    for (const char* key : {"pattern", "file", "mpi_function", "comment", "recommendation"})
      EXPECT_TRUE(f[key].is_string()) << key;
    if (i > 0) {
      EXPECT_LE(f["wait_time_s"].get<double>(), findings[i - 1]["wait_time_s"].get<double>());
    }
  }
  // The page draws the table into this container, sorted by idle time, worst first.
  EXPECT_NE(page.html.find("id=\"findings-body\""), std::string::npos);
  EXPECT_NE(page.html.find("sortKey: 'wait_time_s'"), std::string::npos);
}

TEST(HtmlReport, TimelineIsWhatTheTimelineWriterSelects) {
  const Trace trace = every_pattern_trace();
  const Matching matching = match_trace(trace);
  const TimelineSelection all = select_timeline(trace, matching, {});
  const Page page = page_of(trace);
  const nlohmann::json timeline = embedded_data(page.html)["timeline"];
  const auto& calls = timeline["calls"];
  ASSERT_EQ(calls["track"].size(), all.calls.size());
  EXPECT_EQ(page.counts.calls, all.calls.size());
  EXPECT_EQ(page.counts.messages, all.messages.size());
  EXPECT_EQ(timeline["messages"]["from"].size(), all.messages.size());
  EXPECT_EQ(timeline["tracks"].size(), trace.locations.size());
  for (std::size_t i = 0; i < all.calls.size(); ++i) {
    const Location& l = trace.locations[all.calls[i].loc];
    EXPECT_EQ(calls["enter_ns"][i].get<TimeNs>(), l.call_enter[all.calls[i].call]);
    EXPECT_EQ(calls["leave_ns"][i].get<TimeNs>(), l.call_leave[all.calls[i].call]);
    EXPECT_EQ(timeline["functions"][calls["function"][i].get<std::size_t>()],
              trace.regions[l.call_region[all.calls[i].call]].name);
  }
  for (std::size_t k = 0; k < all.messages.size(); ++k) {
    EXPECT_EQ(timeline["messages"]["from"][k].get<std::size_t>(), all.messages[k].from);
    EXPECT_EQ(timeline["messages"]["to"][k].get<std::size_t>(), all.messages[k].to);
  }
  EXPECT_EQ(timeline["calls_dropped"], 0);
  EXPECT_DOUBLE_EQ(timeline["window"]["end_s"].get<double>(), page.result.trace.duration_s);
}

TEST(HtmlReport, TimelineLimitsAreTheTimelineOptions) {
  const Trace trace = every_pattern_trace();
  const std::size_t total = select_timeline(trace, match_trace(trace), {}).calls.size();
  TimelineOptions capped;
  capped.max_calls = 3;
  const Page page = page_of(trace, capped);
  const nlohmann::json timeline = embedded_data(page.html)["timeline"];
  EXPECT_EQ(timeline["calls"]["track"].size(), 3u);
  EXPECT_EQ(timeline["calls_dropped"].get<std::size_t>(), total - 3);
  EXPECT_EQ(page.counts.calls_dropped, total - 3);

  TimelineOptions window;
  window.start = 1'000'000'000'000;  // after the end: nothing
  window.end = 2'000'000'000'000;
  const nlohmann::json empty = embedded_data(page_of(trace, window).html)["timeline"];
  EXPECT_TRUE(empty["calls"]["track"].empty());
  EXPECT_TRUE(empty["messages"]["from"].empty());
}

TEST(HtmlReport, PageLoadsNothing) {
  const Page page = page_of(every_pattern_trace());
  EXPECT_EQ(page.html.find("{{collwrap:"), std::string::npos);  // every slot filled
  // The only URL is the SVG namespace, which is a name, not a fetch.
  const std::regex url(R"((https?:)?//[A-Za-z0-9.-]+\.[a-z]{2,})");
  std::string rest = page.html;
  for (std::smatch m; std::regex_search(rest, m, url); rest = m.suffix())
    EXPECT_EQ(m.str(), "http://www.w3.org") << "a URL in the page";
  for (const char* fetch : {" src=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest"})
    EXPECT_EQ(page.html.find(fetch), std::string::npos) << fetch;
  EXPECT_NE(page.html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page.html.find("id=\"render-status\""), std::string::npos);
  // The communication matrix is embedded as the shared writer's SVG (bytes and transfer time).
  EXPECT_EQ(count(page.html, "<svg xmlns=\"http://www.w3.org/2000/svg\""), 2u);
}

TEST(HtmlReport, NoMatrixWithoutMessages) {
  TraceBuilder b(2);
  b.call(0, "MPI_Barrier", 0, 10, "/src/a.c", 1);
  b.call(1, "MPI_Barrier", 0, 10, "/src/a.c", 1);
  const Page page = page_of(b.finish());
  EXPECT_EQ(page.html.find("<svg"), std::string::npos);
  EXPECT_NE(page.html.find("id=\"matrix-empty\""), std::string::npos);
  EXPECT_NO_THROW(embedded_data(page.html));
}

TEST(CommunicationHeatmap, CellsAreBytesOrMeanTransferTime) {
  AnalysisResult r;
  r.trace.world_size = 3;
  r.communication = {{0, 2, 4, 4096, 0, 0, 0, 2e-6, 0}, {2, 1, 1, 0, 0, 0, 0, 5e-6, 0}};
  const HeatmapMatrix bytes = communication_heatmap(r, MatrixQuantity::Bytes);
  ASSERT_EQ(bytes.size(), 3u);
  ASSERT_EQ(bytes[0].size(), 3u);
  EXPECT_EQ(bytes[0][2], 4096.0);
  EXPECT_EQ(bytes[2][1], 0.0);  // zero-byte messages are data, not "no data"
  EXPECT_TRUE(std::isnan(bytes[1][0]));
  const HeatmapMatrix mean = communication_heatmap(r, MatrixQuantity::MeanTransferTime);
  EXPECT_DOUBLE_EQ(mean[0][2], 2.0);  // µs
  EXPECT_DOUBLE_EQ(mean[2][1], 5.0);

  std::ostringstream svg;
  write_matrix_svg(r, MatrixQuantity::Bytes, svg);
  EXPECT_EQ(svg.str().rfind("<svg", 0), 0u);
  EXPECT_NE(svg.str().find("0 \u2192 2: 4096 B"), std::string::npos);
  EXPECT_NE(svg.str().find("1 \u2192 0: no data"), std::string::npos);
}

}  // namespace
}  // namespace collwrap::testing
