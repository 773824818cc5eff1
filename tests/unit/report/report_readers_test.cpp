// A JSON report and a database run read back give the result that was written: what
// `analyzer compare` reads of a saved run is what the analysis found.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sstream>

#include "analyze.h"
#include "catalog.h"
#include "every_pattern_trace.h"
#include "json_report.h"
#include "json_report_reader.h"
#include "scratch_directory.h"
#include "sqlite_reader.h"
#include "sqlite_writer.h"

namespace collwrap::testing {
namespace {

AnalysisResult every_pattern_result() {
  const Trace t = every_pattern_trace();
  const Matching m = match_trace(t);
  return analyze_trace(t, m, {{}, select_patterns("all")});
}

// The parts a comparison reads must survive the round trip.
void expect_same_for_comparison(const AnalysisResult& read, const AnalysisResult& written) {
  EXPECT_EQ(read.trace.program, written.trace.program);
  EXPECT_EQ(read.trace.world_size, written.trace.world_size);
  EXPECT_DOUBLE_EQ(read.trace.duration_s, written.trace.duration_s);
  EXPECT_DOUBLE_EQ(read.summary.total_mpi_time_s, written.summary.total_mpi_time_s);
  ASSERT_EQ(read.findings.size(), written.findings.size());
  for (std::size_t i = 0; i < read.findings.size(); ++i) {
    const Finding& r = read.findings[i];
    const Finding& w = written.findings[i];
    EXPECT_EQ(std::tie(r.pattern, r.rank, r.thread, r.file, r.line, r.function, r.mpi_function,
                       r.peers, r.peer_threads, r.occurrences),
              std::tie(w.pattern, w.rank, w.thread, w.file, w.line, w.function, w.mpi_function,
                       w.peers, w.peer_threads, w.occurrences));
    EXPECT_DOUBLE_EQ(r.wait_time_s, w.wait_time_s);
  }
  ASSERT_EQ(read.summary.patterns.size(), written.summary.patterns.size());
  for (std::size_t i = 0; i < read.summary.patterns.size(); ++i) {
    EXPECT_EQ(read.summary.patterns[i].pattern, written.summary.patterns[i].pattern);
    EXPECT_DOUBLE_EQ(read.summary.patterns[i].wait_time_s, written.summary.patterns[i].wait_time_s);
  }
  EXPECT_EQ(read.summary.options.patterns, written.summary.options.patterns);
  EXPECT_EQ(read.operations.size(), written.operations.size());
  ASSERT_TRUE(written.causes.has_value());
  ASSERT_TRUE(read.causes.has_value());
  ASSERT_EQ(read.causes->root_causes.size(), written.causes->root_causes.size());
  for (std::size_t i = 0; i < read.causes->root_causes.size(); ++i) {
    EXPECT_EQ(read.causes->root_causes[i].segment.line,
              written.causes->root_causes[i].segment.line);
    EXPECT_DOUBLE_EQ(read.causes->root_causes[i].long_term_cost_s,
                     written.causes->root_causes[i].long_term_cost_s);
  }
  EXPECT_EQ(read.causes->pop.region, written.causes->pop.region);
  EXPECT_DOUBLE_EQ(read.causes->pop.parallel_efficiency, written.causes->pop.parallel_efficiency);
  EXPECT_EQ(read.causes->pop.ranks.size(), written.causes->pop.ranks.size());
}

TEST(JsonReportReader, ReadsBackWhatTheWriterWrote) {
  const AnalysisResult written = every_pattern_result();
  ASSERT_FALSE(written.findings.empty());
  std::stringstream text;
  write_json_report(written, text);
  expect_same_for_comparison(read_json_report(text), written);
}

TEST(JsonReportReader, RefusesWhatIsNotOurReport) {
  std::stringstream not_json("{ not json");
  EXPECT_THROW(read_json_report(not_json), ReportReadError);
  EXPECT_THROW(read_json_report(nlohmann::json{{"a", 1}}), ReportReadError);
  nlohmann::json newer = nlohmann::json::parse(R"({"schema_version": "2.0", "findings": []})");
  EXPECT_THROW(read_json_report(newer), ReportReadError);
  nlohmann::json broken =
      nlohmann::json::parse(R"({"schema_version": "1.4", "findings": [{"rank": 0}]})");
  EXPECT_THROW(read_json_report(broken), ReportReadError);
}

TEST(SqliteReader, ReadsBackARunOfTheDatabase) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  const AnalysisResult written = every_pattern_result();
  append_run_to_database(written, db);
  EXPECT_EQ(append_run_to_database(written, db), 2);
  EXPECT_EQ(database_run_ids(db), (std::vector<std::int64_t>{1, 2}));
  const AnalysisResult read = read_database_run(db, 2);
  // The database keeps findings by wait; the report's order is the same (worst first).
  expect_same_for_comparison(read, written);
  EXPECT_THROW(read_database_run(db, 3), DatabaseError);
  EXPECT_THROW(read_database_run(dir / "missing.db", 1), DatabaseError);
}

TEST(SqliteReader, RefusesADatabaseOfANewerSchema) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  append_run_to_database(every_pattern_result(), db);
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(handle, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(handle);
  EXPECT_THROW(read_database_run(db, 1), DatabaseError);
}

}  // namespace
}  // namespace collwrap::testing
