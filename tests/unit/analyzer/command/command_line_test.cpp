// The analyzer's command line.
#include "command_line.h"

#include <gtest/gtest.h>

#include "catalog.h"

namespace collwrap::testing {
namespace {

CommandLine parse(std::initializer_list<std::string_view> args) {
  return parse_command_line(std::vector<std::string_view>(args));
}

TEST(CommandLine, Defaults) {
  const CommandLine cl = parse({"trace_dir"});
  EXPECT_EQ(cl.action, CommandLine::Action::Analyze);
  EXPECT_EQ(cl.trace_path, "trace_dir");
  EXPECT_EQ(cl.patterns.size(), pattern_catalog().size());
  EXPECT_FALSE(cl.report_path("--json").has_value());
  EXPECT_FALSE(cl.rules.eager_threshold.has_value());
  EXPECT_EQ(cl.rules.min_wait, RuleOptions{}.min_wait);
  EXPECT_EQ(cl.rules.sendrecv_window, RuleOptions{}.sendrecv_window);
  EXPECT_EQ(cl.top, 10u);
  EXPECT_FALSE(cl.quiet);
  EXPECT_TRUE(cl.clock_repair);
}

TEST(CommandLine, EveryOptionInBothSpellings) {
  const CommandLine cl = parse(
      {"--patterns", "late_sender,wrong_order", "t", "--json=-", "--eager-threshold", "65536",
       "--min-wait=0.001", "--sendrecv-window", "2e-4", "--top=3", "--quiet", "--no-clock-repair"});
  EXPECT_EQ(cl.trace_path, "t");
  ASSERT_EQ(cl.patterns.size(), 2u);
  EXPECT_EQ(cl.patterns[1], &kWrongOrder);
  EXPECT_EQ(cl.report_path("--json"), "-");
  EXPECT_EQ(cl.rules.eager_threshold, 65536u);
  EXPECT_EQ(cl.rules.min_wait, 1'000'000);
  EXPECT_EQ(cl.rules.sendrecv_window, 200'000);
  EXPECT_EQ(cl.top, 3u);
  EXPECT_TRUE(cl.quiet);
  EXPECT_FALSE(cl.clock_repair);
}

TEST(CommandLine, HelpAndVersionNeedNoTrace) {
  EXPECT_EQ(parse({"--help"}).action, CommandLine::Action::Help);
  EXPECT_EQ(parse({"-h"}).action, CommandLine::Action::Help);
  EXPECT_EQ(parse({"--version"}).action, CommandLine::Action::Version);
}

TEST(CommandLine, DoubleDashEndsOptions) {
  EXPECT_EQ(parse({"--", "--odd-name"}).trace_path, "--odd-name");
}

void expect_usage_error(std::initializer_list<std::string_view> args, const std::string& says) {
  try {
    parse(args);
    ADD_FAILURE() << "no usage error; expected one saying: " << says;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(CommandLine, MistakesSayWhatToDo) {
  expect_usage_error({}, "no trace given; name the archive directory");
  expect_usage_error({"a", "b"}, "more than one trace");
  expect_usage_error({"t", "--patterns", "late_sender,bogus"},
                     "unknown pattern id 'bogus' in --patterns; use 'all' or a comma list of: "
                     "all, late_sender");
  expect_usage_error({"t", "--patterns"}, "--patterns needs a value");
  expect_usage_error({"t", "--frobnicate"}, "unknown option '--frobnicate'");
  expect_usage_error({"t", "--eager-threshold", "4k"}, "--eager-threshold needs a whole number");
  expect_usage_error({"t", "--eager-threshold", "-1"}, "--eager-threshold needs a whole number");
  expect_usage_error({"t", "--min-wait", "-0.1"}, "--min-wait needs a number of seconds >= 0");
  expect_usage_error({"t", "--min-wait", "nan"}, "--min-wait needs a number of seconds");
  expect_usage_error({"t", "--sendrecv-window", "1ms"}, "--sendrecv-window needs a number");
  expect_usage_error({"t", "--top", "x"}, "--top needs a whole number");
  expect_usage_error({"t", "--json", "/nonexistent/dir/r.json"}, "does not exist");
  expect_usage_error({"t", "--json", "/tmp"}, "--json names a directory");
  expect_usage_error({"t", "--json="}, "--json needs a file name");
}

TEST(CommandLine, UsageListsOptionsDefaultsAndPatterns) {
  const std::string u = usage_text();
  for (const char* option :
       {"--patterns", "--json", "--eager-threshold", "--min-wait", "--sendrecv-window", "--top",
        "--quiet", "--no-clock-repair", "--version", "--help"})
    EXPECT_NE(u.find(option), std::string::npos) << option;
  for (const Pattern* p : pattern_catalog()) EXPECT_NE(u.find(p->id), std::string::npos);
  EXPECT_NE(u.find("4096 within a node, 65536 between nodes"), std::string::npos);
  EXPECT_NE(u.find("1e-05 s = 10.0 µs"), std::string::npos) << u;
}

TEST(CommandLine, ReportFileOptions) {
  const CommandLine cl =
      parse({"t", "--sqlite", "runs.db", "--sarif=r.sarif", "--matrix-csv", "m.csv", "--timeline",
             "tl.json", "--time-window=1.5:2", "--timeline-max-events", "1000"});
  EXPECT_EQ(cl.report_path("--sqlite"), "runs.db");
  EXPECT_EQ(cl.report_path("--sarif"), "r.sarif");
  EXPECT_EQ(cl.report_path("--matrix-csv"), "m.csv");
  EXPECT_EQ(cl.report_path("--timeline"), "tl.json");
  EXPECT_EQ(cl.timeline.start, 1'500'000'000);
  EXPECT_EQ(cl.timeline.end, 2'000'000'000);
  EXPECT_EQ(cl.timeline.max_calls, 1000u);
  expect_usage_error({"t", "--sarif", "/tmp"}, "--sarif names a directory");
  expect_usage_error({"t", "--sqlite", "/no/such/dir/runs.db"}, "does not exist");
  expect_usage_error({"t", "--time-window", "2"}, "--time-window needs START:END");
  expect_usage_error({"t", "--time-window", "2:1"}, "ends before it starts");
  for (const char* option : {"--sqlite", "--sarif", "--matrix-csv", "--timeline", "--time-window",
                             "--timeline-max-events"})
    EXPECT_NE(usage_text().find(option), std::string::npos) << option;
}

// The critical path's pieces are as many as its hops; only the HTML timeline draws them.
TEST(CommandLine, CriticalPathPiecesOnlyForTheHtmlReport) {
  EXPECT_FALSE(parse({"t", "--json", "r.json", "--sarif", "r.sarif"}).causes.critical_path_pieces);
  EXPECT_TRUE(parse({"t", "--html", "r.html"}).causes.critical_path_pieces);
}

}  // namespace
}  // namespace collwrap::testing
