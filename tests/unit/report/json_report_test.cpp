// The JSON report carries the documented fields with the right types.
#include "json_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analyze.h"
#include "catalog.h"
#include "every_pattern_trace.h"

namespace collwrap::testing {
namespace {

nlohmann::json report_of(const AnalysisResult& result) {
  std::ostringstream out;
  write_json_report(result, out);
  return nlohmann::json::parse(out.str());  // throws if the writer produced invalid JSON
}

AnalysisResult every_pattern_result() {
  const Trace t = every_pattern_trace();
  return analyze_trace(t, match_trace(t), {{}, select_patterns("all")});
}

TEST(JsonReport, TopLevelFields) {
  const nlohmann::json j = report_of(every_pattern_result());
  for (const char* key :
       {"schema_version", "tool_version", "trace", "ranks", "findings", "summary"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(j["ranks"].size(), 4u);
  EXPECT_EQ(j["trace"]["world_size"], 4);
}

TEST(JsonReport, FindingFieldsOfTheDesign) {
  const nlohmann::json j = report_of(every_pattern_result());
  ASSERT_FALSE(j["findings"].empty());
  for (const auto& f : j["findings"]) {
    EXPECT_TRUE(f["pattern"].is_string());
    EXPECT_TRUE(f["rank"].is_number_integer());
    EXPECT_TRUE(f["thread"].is_number_integer());
    EXPECT_TRUE(f["node"].is_string());
    EXPECT_EQ(f["file"], kAppFile);
    EXPECT_TRUE(f["line"].is_number_unsigned());
    EXPECT_EQ(f["function"], "main");
    const std::string function = f["mpi_function"].get<std::string>();
    EXPECT_TRUE(function.starts_with("MPI_") || function.starts_with("shmem_") ||
                function.starts_with("upc_"))
        << function;
    EXPECT_TRUE(f["peers"].is_array());
    EXPECT_GE(f["occurrences"].get<int>(), 1);
    EXPECT_GT(f["wait_time_s"].get<double>(), 0);
    EXPECT_LE(f["max_wait_s"].get<double>(), f["wait_time_s"].get<double>());
    EXPECT_FALSE(f["comment"].get<std::string>().empty());
    EXPECT_FALSE(f["recommendation"].get<std::string>().empty());
  }
}

TEST(JsonReport, ValuesOfOneFinding) {
  const nlohmann::json j = report_of(every_pattern_result());
  const auto it = std::find_if(j["findings"].begin(), j["findings"].end(),
                               [](const auto& f) { return f["pattern"] == "wrong_order"; });
  ASSERT_NE(it, j["findings"].end());
  EXPECT_EQ((*it)["rank"], 0);
  EXPECT_EQ((*it)["line"], 10);
  EXPECT_EQ((*it)["peers"], nlohmann::json::array({1}));
  EXPECT_NEAR((*it)["wait_time_s"].get<double>(), 0.008, 1e-12);
  EXPECT_EQ((*it)["details"]["message_order"]["same_source"], 1);
  EXPECT_EQ((*it)["details"]["send_modes"]["standard"], 1);
}

TEST(JsonReport, UnknownSourceIsNull) {
  AnalysisResult r;
  Finding f;
  f.pattern = "late_sender";
  f.mpi_function = "MPI_Recv";
  r.findings.push_back(f);
  const nlohmann::json j = report_of(r);
  EXPECT_TRUE(j["findings"][0]["file"].is_null());
  EXPECT_TRUE(j["findings"][0]["line"].is_null());
  EXPECT_TRUE(j["findings"][0]["function"].is_null());
  EXPECT_TRUE(j["summary"]["options"]["eager_threshold_bytes"].is_null());
}

TEST(JsonReport, SummaryCountsAndOptions) {
  AnalysisResult r = every_pattern_result();
  r.summary.options.eager_threshold_bytes = 65536;
  r.summary.warnings = {"2 send(s) without a matching receive were not analyzed"};
  const nlohmann::json s = report_of(r)["summary"];
  EXPECT_EQ(s["options"]["eager_threshold_bytes"], 65536);
  EXPECT_EQ(s["warning_count"], 1);
  EXPECT_EQ(s["patterns"].size(), pattern_catalog().size());
  EXPECT_TRUE(s["clock"]["violations"].is_number_unsigned());
  EXPECT_TRUE(s["matching"]["unmatched_sends"].is_number_unsigned());
}

TEST(JsonReport, InvalidUtf8InNamesDoesNotBreakTheReport) {
  AnalysisResult r;
  r.trace.path = "/tmp/\xff\xfe/traces.otf2";
  EXPECT_NO_THROW(report_of(r));
}

}  // namespace
}  // namespace collwrap::testing
