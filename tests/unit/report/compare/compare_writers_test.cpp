// The terminal table, the JSON and the HTML page of a comparison and of a scaling study say
// the same things: the gone finding with its seconds, the verdicts, the scaling rows.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "compare_html.h"
#include "compare_json.h"
#include "compare_terminal.h"

namespace collwrap::testing {
namespace {

CompareReport gone_finding_report() {
  ComparedRun base{.label = "slow"};
  base.result.trace.program = "app";
  base.result.trace.world_size = 2;
  base.result.trace.duration_s = 1.2;
  Finding f;
  f.pattern = "late_sender";
  f.rank = 0;
  f.file = "/src/app.c";
  f.line = 32;
  f.function = "main";
  f.mpi_function = "MPI_Recv";
  f.wait_time_s = 1.0;
  base.result.findings = {f};
  base.result.summary.options.patterns = {"late_sender"};
  base.result.summary.patterns.resize(1);
  base.result.summary.patterns[0].pattern = "late_sender";
  base.result.summary.patterns[0].wait_time_s = 1.0;
  ComparedRun fixed{.label = "fast"};
  fixed.result.trace = base.result.trace;
  fixed.result.trace.duration_s = 0.2;
  fixed.result.summary.options.patterns = {"late_sender"};
  fixed.result.summary.patterns = base.result.summary.patterns;
  fixed.result.summary.patterns[0].wait_time_s = 0;
  // The reverse direction: the fixed run is the base.
  const std::vector<ComparedRun> runs{base, fixed};
  return compare_report(runs, {.thresholds = {parse_worse_threshold("total:5")}});
}

TEST(CompareWriters, TerminalListsTheGoneFindingWithItsSeconds) {
  std::ostringstream out;
  write_compare_terminal(gone_finding_report(), 10, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("−1.00 s"), std::string::npos) << text;
  EXPECT_NE(text.find("app.c:32 in main, MPI_Recv"), std::string::npos) << text;
  EXPECT_NE(text.find("gone"), std::string::npos) << text;
  EXPECT_NE(text.find("within the threshold"), std::string::npos) << text;
}

TEST(CompareWriters, JsonHasTheChangesAndTheVerdict) {
  std::ostringstream out;
  write_compare_json(gone_finding_report(), out);
  const nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["schema_version"], kCompareSchemaVersion);
  const auto& site = j["comparisons"][0]["call_sites"][0];
  EXPECT_EQ(site["status"], "gone");
  EXPECT_TRUE(site["rank"].is_null());
  EXPECT_DOUBLE_EQ(site["wait_time_s"]["change"].get<double>(), -1.0);
  EXPECT_DOUBLE_EQ(site["wait_time_s"]["percent"].get<double>(), -100.0);
  EXPECT_EQ(j["thresholds"][0]["crossed"], false);
  EXPECT_EQ(j["worse"], false);
  EXPECT_TRUE(j["scaling"].is_null());
}

TEST(CompareWriters, HtmlIsOneSelfContainedPageWithBars) {
  std::ostringstream out;
  write_compare_html(gone_finding_report(), out);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("class=\"bar base\" style=\"width:100.0%\""), std::string::npos);
  EXPECT_NE(html.find("class=\"bar new\" style=\"width:0.0%\""), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // fetches nothing
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(CompareWriters, ScalingTableAndPlot) {
  CompareReport r;
  r.scaling = ScalingStudy{.rows = scaling_rows({{.label = "two",
                                                  .ranks = 2,
                                                  .runtime_s = 2,
                                                  .total_useful_s = 3,
                                                  .parallel_efficiency = 0.75},
                                                 {.label = "four",
                                                  .ranks = 4,
                                                  .runtime_s = 1.25,
                                                  .total_useful_s = 4,
                                                  .parallel_efficiency = 0.6}})};
  std::ostringstream text, html, json;
  write_compare_terminal(r, 10, text);
  write_compare_html(r, html);
  write_compare_json(r, json);
  EXPECT_NE(text.str().find("0.450"), std::string::npos) << text.str();  // 0.6 × 0.75
  EXPECT_NE(html.str().find("<polyline class=\"measured\""), std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(json.str());
  EXPECT_DOUBLE_EQ(j["scaling"]["rows"][1]["global_efficiency"].get<double>(), 0.45);
  EXPECT_DOUBLE_EQ(j["scaling"]["rows"][1]["speedup"].get<double>(), 1.6);
}

}  // namespace
}  // namespace collwrap::testing
