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
  ASSERT_TRUE(r.causes);
  ASSERT_EQ(rules.size(), pattern_catalog().size() + 1);  // and root_cause
  ASSERT_EQ(run["results"].size(), r.findings.size() + r.causes->root_causes.size());
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

// Root causes follow the findings, at the line that ends the segment, with the waits they
// cause as related locations.
TEST(Sarif, RootCausesPointAtTheLineToChangeAndRelateTheirWaits) {
  AnalysisResult r;
  r.causes.emplace();
  RootCause cause;
  cause.segment.file = "/src/solver.c";
  cause.segment.line = 120;
  cause.segment.function = "solve";
  cause.segment.mpi_function = "MPI_Send";
  cause.segment.start_file = "/src/solver.c";
  cause.segment.start_line = 100;
  cause.segment.start_mpi_function = "MPI_Recv";
  cause.rank = 3;
  cause.short_term_cost_s = 1.5;
  cause.long_term_cost_s = 0.5;
  cause.gain_s = 1.25;
  cause.caused_waits = {{1, 0, "/src/solver.c", 130, "solve", 1.5, 0},
                        {2, 0, "", 0, "", 0, 0.5},  // no call site: nowhere to point
                        {2, 0, "/src/io.c", 7, "dump", 0, 0.25}};
  r.causes->root_causes.push_back(cause);
  const nlohmann::json j = sarif_of(r);
  const nlohmann::json& run = j["runs"][0];
  const nlohmann::json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0]["id"], "root_cause");
  ASSERT_EQ(run["results"].size(), 1u);
  const nlohmann::json& res = run["results"][0];
  EXPECT_EQ(res["ruleId"], "root_cause");
  EXPECT_EQ(res["ruleIndex"], 0);
  const nlohmann::json& where = res["locations"][0];
  EXPECT_EQ(where["physicalLocation"]["artifactLocation"]["uri"], "file:///src/solver.c");
  EXPECT_EQ(where["physicalLocation"]["region"]["startLine"], 120);
  EXPECT_EQ(where["logicalLocations"][0]["name"], "solve");
  EXPECT_NE(res["message"]["text"].get<std::string>().find("solver.c:100 (MPI_Recv)"),
            std::string::npos);
  const nlohmann::json& related = res["relatedLocations"];
  ASSERT_EQ(related.size(), 2u);
  EXPECT_EQ(related[0]["id"], 0);
  EXPECT_EQ(related[0]["physicalLocation"]["region"]["startLine"], 130);
  EXPECT_EQ(related[1]["id"], 1);
  EXPECT_EQ(related[1]["physicalLocation"]["artifactLocation"]["uri"], "file:///src/io.c");
  EXPECT_NE(related[1]["message"]["text"].get<std::string>().find("rank 2"), std::string::npos);
  EXPECT_DOUBLE_EQ(res["properties"]["gain_s"].get<double>(), 1.25);
  EXPECT_EQ(res["properties"]["rank"], 3);
  EXPECT_FALSE(res.contains("stacks"));  // one frame per call site: no call path
}

// With COLLWRAP_CALLSITE_DEPTH > 1 the line to change comes with its callers, as a SARIF stack.
TEST(Sarif, RootCauseCallPathIsAStack) {
  AnalysisResult r;
  r.causes.emplace();
  RootCause cause;
  cause.segment.file = "/src/solver.c";
  cause.segment.line = 120;
  cause.segment.mpi_function = "MPI_Allreduce";
  cause.segment.call_path = {{"/src/phases.c", 34, "phase_b"}, {"/src/main.c", 9, "main"}};
  r.causes->root_causes.push_back(cause);
  const nlohmann::json j = sarif_of(r);
  const nlohmann::json& res = j["runs"][0]["results"][0];
  ASSERT_EQ(res["stacks"].size(), 1u);
  const nlohmann::json& frames = res["stacks"][0]["frames"];
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0]["location"]["physicalLocation"]["region"]["startLine"], 120);
  EXPECT_EQ(frames[1]["location"]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///src/phases.c");
  EXPECT_EQ(frames[1]["location"]["logicalLocations"][0]["name"], "phase_b");
  EXPECT_EQ(frames[2]["location"]["physicalLocation"]["region"]["startLine"], 9);
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
