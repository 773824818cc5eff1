// The terminal summary: worst findings first, with file:line, idle time and recommendation.
#include "terminal_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "analyze.h"
#include "catalog.h"
#include "every_pattern_trace.h"

namespace collwrap::testing {
namespace {

std::string summary_of(const AnalysisResult& r, TerminalOptions options = {}) {
  std::ostringstream out;
  write_terminal_summary(r, options, out);
  return out.str();
}

AnalysisResult every_pattern_result() {
  const Trace t = every_pattern_trace();
  return analyze_trace(t, match_trace(t), {{}, select_patterns("all")});
}

TEST(TerminalSummary, WorstFindingFirstWithPlaceTimeAndAdvice) {
  const std::string s = summary_of(every_pattern_result());
  const auto first = s.find("1.  late_sender");
  ASSERT_NE(first, std::string::npos) << s;
  const std::string line = s.substr(first, s.find('\n', first) - first);
  EXPECT_NE(line.find("8.00 ms"), std::string::npos) << line;
  EXPECT_NE(line.find("rank 0"), std::string::npos) << line;
  EXPECT_NE(line.find("/src/app.c:10"), std::string::npos) << line;
  EXPECT_NE(line.find("peers: rank 1"), std::string::npos) << line;
  // The recommendation follows, word-wrapped.
  EXPECT_NE(s.find("\n    " + std::string(kLateSender.recommendation.substr(0, 40)), first),
            std::string::npos);
  EXPECT_LT(first, s.find("2.  "));
}

TEST(TerminalSummary, TopLimitsTheList) {
  TerminalOptions options;
  options.top = 2;
  const std::string s = summary_of(every_pattern_result(), options);
  EXPECT_NE(s.find("Worst findings (2 of "), std::string::npos);
  EXPECT_EQ(s.find("3.  "), std::string::npos);
  EXPECT_NE(s.find("more in the JSON report"), std::string::npos);
}

// Columns as a terminal shows them: UTF-8 continuation bytes take no column.
std::size_t columns(const std::string& line) {
  return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

TEST(TerminalSummary, LongRecommendationsWrapAtTheTextWidth) {
  std::istringstream lines(summary_of(every_pattern_result()));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("    ")) {
      EXPECT_LE(columns(line), 100u) << line;
    }
  }
}

TEST(TerminalSummary, ColumnsAlignWhateverTheUnit) {
  // Every finding line has its location column ("rank N") at the same column.
  std::istringstream lines(summary_of(every_pattern_result(), {.top = 30}));
  std::size_t column = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    const std::size_t at = columns(line.substr(0, line.find("rank ")));
    if (column == 0) column = at;
    EXPECT_EQ(at, column) << line;
  }
  EXPECT_GT(column, 0u);
}

TEST(TerminalSummary, EachRecommendationOnce) {
  // wait_at_barrier has three findings (ranks 0, 1 and 2) with the same advice.
  const std::string s = summary_of(every_pattern_result(), {.top = 30});
  const std::string advice(kWaitAtBarrier.recommendation.substr(0, 40));
  const auto first = s.find(advice);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(s.find(advice, first + 1), std::string::npos);
}

TEST(TerminalSummary, TotalsRanksAndDataQuality) {
  const std::string s = summary_of(every_pattern_result());
  EXPECT_NE(s.find("Idle time by pattern"), std::string::npos);
  EXPECT_NE(s.find("early_scan"), std::string::npos);
  EXPECT_NE(s.find("MPI time per rank:"), std::string::npos);
  EXPECT_NE(s.find("Matching: "), std::string::npos);
  EXPECT_NE(s.find("Clock: 0 clock-condition violations"), std::string::npos);
  EXPECT_NE(s.find("below --min-wait"), std::string::npos);
}

TEST(TerminalSummary, SourcePathsRelativeToTheWorkingDirectory) {
  TerminalOptions options;
  options.base_dir = "/src";
  const std::string s = summary_of(every_pattern_result(), options);
  EXPECT_NE(s.find(" app.c:10"), std::string::npos) << s;
  EXPECT_EQ(s.find("/src/app.c"), std::string::npos);
  options.base_dir = "/elsewhere";
  EXPECT_NE(summary_of(every_pattern_result(), options).find("/src/app.c:10"), std::string::npos);
}

TEST(TerminalSummary, SaysSoWhenNothingIsFoundAndListsWarnings) {
  AnalysisResult r;
  r.summary.options.min_wait_s = 1e-5;
  r.summary.warnings = {"1 location(s) defined in the archive have no events"};
  const std::string s = summary_of(r);
  EXPECT_NE(s.find("No wait state of at least 10.0 µs"), std::string::npos) << s;
  EXPECT_NE(s.find("Warnings (1):\n  - 1 location(s)"), std::string::npos) << s;
}

}  // namespace
}  // namespace collwrap::testing
