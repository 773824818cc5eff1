// The SARIF log has one result per finding, pointing at its file and line, with the rule of
// its pattern; text from the trace is escaped in JSON strings and URIs.
#include "sarif_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analyze.h"
#include "catalog.h"
#include "every_pattern_trace.h"

namespace collwrap::testing {
namespace {

nlohmann::json sarif_of(const AnalysisResult& result) {
  std::ostringstream out;
  write_sarif(result, out);
  return nlohmann::json::parse(out.str());  // throws if the writer produced invalid JSON
}

TEST(Sarif, OneResultPerFindingWithItsRuleAndLine) {
  const Trace t = every_pattern_trace();
  const AnalysisResult r = analyze_trace(t, match_trace(t), {{}, select_patterns("all")});
  const nlohmann::json j = sarif_of(r);
  EXPECT_EQ(j["version"], "2.1.0");
  ASSERT_EQ(j["runs"].size(), 1u);
  const nlohmann::json& run = j["runs"][0];
  const nlohmann::json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), pattern_catalog().size());
  ASSERT_EQ(run["results"].size(), r.findings.size());
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    const Finding& f = r.findings[i];
    const nlohmann::json& res = run["results"][i];
    EXPECT_EQ(res["ruleId"], f.pattern);
    EXPECT_EQ(rules[res["ruleIndex"].get<std::size_t>()]["id"], f.pattern);
    EXPECT_EQ(res["message"]["text"], f.comment + " " + f.recommendation);
    const nlohmann::json& where = res["locations"][0]["physicalLocation"];
    EXPECT_EQ(where["artifactLocation"]["uri"], "file:///src/app.c");
    EXPECT_EQ(where["region"]["startLine"], f.line);
    EXPECT_DOUBLE_EQ(res["properties"]["wait_time_s"].get<double>(), f.wait_time_s);
  }
}

TEST(Sarif, TraceTextIsEscaped) {
  AnalysisResult r;
  Finding f;
  f.pattern = "late_sender";
  f.file = "/src/my dir/a\"b%.c";
  f.line = 3;
  f.comment = "quote \" backslash \\ newline\n";
  r.findings.push_back(f);
  const nlohmann::json j = sarif_of(r);
  const nlohmann::json& res = j["runs"][0]["results"][0];
  EXPECT_EQ(res["message"]["text"], f.comment + " ");
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///src/my%20dir/a%22b%25.c");
  EXPECT_FALSE(res.contains("ruleIndex"));  // no such rule selected
}

TEST(Sarif, FindingWithoutFileHasNoLocation) {
  AnalysisResult r;
  r.findings.emplace_back().pattern = "late_sender";
  EXPECT_TRUE(sarif_of(r)["runs"][0]["results"][0]["locations"].empty());
}

TEST(FileUri, RelativePathStaysRelative) {
  EXPECT_EQ(file_uri("src/a b.c"), "src/a%20b.c");
  EXPECT_EQ(file_uri("/x/\xc3\xa9.c"), "file:///x/%C3%A9.c");
}

}  // namespace
}  // namespace collwrap::testing
