// Each analysis appends a run with all its rows; analyzers appending to one database at the
// same time all get their runs in; a database of a newer schema is refused, not changed.
#include "sqlite_writer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <thread>
#include <vector>

#include "analyze.h"
#include "catalog.h"
#include "comm_matrix.h"
#include "every_pattern_trace.h"
#include "scratch_directory.h"

namespace collwrap::testing {
namespace {

AnalysisResult every_pattern_result() {
  const Trace t = every_pattern_trace();
  const Matching m = match_trace(t);
  AnalysisResult r = analyze_trace(t, m, {{}, select_patterns("all")});
  r.trace.program = "it's \"quoted\"";  // text from the trace reaches SQL only as a bound value
  return r;
}

// The first column of the first row of `sql`, as text ("" when there is no row).
std::string query(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
  std::string value;
  if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
    value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return value;
}

TEST(SqliteWriter, EachAnalysisAppendsARunWithAllItsRows) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  const AnalysisResult r = every_pattern_result();
  ASSERT_FALSE(r.communication.empty());
  EXPECT_EQ(append_run_to_database(r, db), 1);
  EXPECT_EQ(append_run_to_database(r, db), 2);

  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM runs"), "2");
  EXPECT_EQ(query(db, "SELECT program FROM runs WHERE run_id = 2"), r.trace.program);
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM findings WHERE run_id = 2"),
            std::to_string(r.findings.size()));
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM ranks WHERE run_id = 1"), "4");
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM pattern_totals WHERE run_id = 1"),
            std::to_string(pattern_catalog().size()));
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM comm_matrix WHERE run_id = 2"),
            std::to_string(r.communication.size()));
  // Call sites are shared between runs: both runs' findings point at the same rows.
  EXPECT_EQ(query(db, "SELECT COUNT(DISTINCT call_site_id) FROM findings"),
            query(db, "SELECT COUNT(DISTINCT call_site_id) FROM findings WHERE run_id = 1"));
  EXPECT_EQ(query(db, "SELECT file FROM call_sites LIMIT 1"), kAppFile);

  const Finding& worst = r.findings.front();
  std::string peers;
  for (const std::int32_t p : worst.peers) {
    if (!peers.empty()) peers += ',';
    peers += std::to_string(p);
  }
  EXPECT_EQ(query(db,
                  "SELECT pattern || ' ' || rank || ' ' || peers FROM findings"
                  " WHERE run_id = 1 ORDER BY wait_time_s DESC, finding_id LIMIT 1"),
            worst.pattern + " " + std::to_string(worst.rank) + " " + peers);
  EXPECT_EQ(query(db, "PRAGMA journal_mode"), "wal");
  // One row per peer rank and thread the finding waited for.
  std::size_t peer_threads = 0;
  for (const std::vector<std::int32_t>& threads : worst.peer_threads)
    peer_threads += threads.size();
  EXPECT_GT(peer_threads, 0u);
  EXPECT_EQ(query(db,
                  "SELECT COUNT(*) FROM finding_peer_threads WHERE finding_id = (SELECT finding_id"
                  " FROM findings WHERE run_id = 1 ORDER BY wait_time_s DESC, finding_id LIMIT 1)"),
            std::to_string(peer_threads));
  EXPECT_EQ(query(db, "PRAGMA user_version"), "4");
}

TEST(SqliteWriter, RootCausesCriticalPathAndPopHaveTheirTables) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  const AnalysisResult r = every_pattern_result();
  ASSERT_TRUE(r.causes);
  const CauseAnalysis& c = *r.causes;
  ASSERT_FALSE(c.root_causes.empty());
  append_run_to_database(r, db);

  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM root_causes WHERE run_id = 1"),
            std::to_string(c.root_causes.size()));
  const RootCause& top = c.root_causes.front();
  EXPECT_EQ(
      query(db,
            "SELECT r.rank || ' ' || s.file || ':' || s.line FROM root_causes r"
            " JOIN call_sites s USING (call_site_id) WHERE position = 1"),
      std::to_string(top.rank) + " " + top.segment.file + ":" + std::to_string(top.segment.line));
  std::size_t waits = 0;
  for (const RootCause& cause : c.root_causes) waits += cause.caused_waits.size();
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM caused_waits"), std::to_string(waits));
  EXPECT_EQ(query(db, "SELECT hops FROM critical_paths WHERE run_id = 1"),
            std::to_string(c.critical_path.hops));
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM critical_path_shares WHERE kind = 'segment'"),
            std::to_string(c.critical_path.segments.size()));
  EXPECT_EQ(query(db,
                  "SELECT COUNT(*) FROM critical_path_shares WHERE kind = 'mpi_call'"
                  " AND mean_per_rank_s IS NULL"),
            std::to_string(c.critical_path.call_sites.size()));
  EXPECT_EQ(query(db, "SELECT region FROM pop_efficiencies WHERE run_id = 1"), c.pop.region);
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM pop_ranks WHERE run_id = 1"),
            std::to_string(c.pop.ranks.size()));
}

TEST(SqliteWriter, RunWithoutCausesLeavesTheirTablesEmpty) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  AnalysisResult r = every_pattern_result();
  r.causes.reset();
  append_run_to_database(r, db);
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM root_causes"), "0");
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM pop_efficiencies"), "0");
}

TEST(SqliteWriter, ConcurrentAnalyzersDoNotLoseRuns) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  const AnalysisResult r = every_pattern_result();
  constexpr int kWriters = 4, kRunsEach = 5;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&] {
      for (int i = 0; i < kRunsEach; ++i) append_run_to_database(r, db);
    });
  for (std::thread& w : writers) w.join();
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM runs"), std::to_string(kWriters * kRunsEach));
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM findings"),
            std::to_string(kWriters * kRunsEach * r.findings.size()));
}

TEST(SqliteWriter, NewerSchemaIsRefusedAndLeftAlone) {
  const ScratchDirectory dir;
  const std::string db = dir / "runs.db";
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(handle, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(handle);
  EXPECT_THROW(append_run_to_database(every_pattern_result(), db), DatabaseError);
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'runs'"), "0");
}

TEST(SqliteWriter, UnwritableFileIsADatabaseError) {
  const ScratchDirectory dir;
  EXPECT_THROW(append_run_to_database({}, dir / "missing/runs.db"), DatabaseError);
}

}  // namespace
}  // namespace collwrap::testing
