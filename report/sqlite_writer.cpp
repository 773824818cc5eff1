#include "sqlite_writer.h"

#include <sqlite3.h>

#include <chrono>
#include <concepts>
#include <ctime>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

#include "sqlite_schema.h"

namespace collwrap {
namespace {

// Another analyzer may hold the write lock while it appends a large run.
constexpr int kBusyTimeoutMs = 60'000;

struct CloseDatabase {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
using Database = std::unique_ptr<sqlite3, CloseDatabase>;

class Writer {
 public:
  Writer(sqlite3* db, const std::string& path) : db_(db), path_(path) {}

  [[noreturn]] void fail(std::string_view doing) const {
    throw DatabaseError("cannot " + std::string(doing) + " in the database '" + path_ +
                        "': " + sqlite3_errmsg(db_));
  }

  void exec(const char* sql, std::string_view doing) const {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(doing);
  }

  // Like exec, retrying while another connection holds a lock. Needed where SQLite returns
  // SQLITE_BUSY without calling the busy handler, as the switch to WAL does while a second
  // analyzer opens the same new database.
  void exec_when_unlocked(const char* sql, std::string_view doing) const {
    constexpr auto kPause = std::chrono::milliseconds(10);
    for (auto waited = std::chrono::milliseconds(0);; waited += kPause) {
      const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return;
      if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
          waited >= std::chrono::milliseconds(kBusyTimeoutMs))
        fail(doing);
      std::this_thread::sleep_for(kPause);
    }
  }

  // A prepared statement, bound by position and run once per row.
  class Statement {
   public:
    Statement(const Writer& w, const char* sql) : w_(w) {
      if (sqlite3_prepare_v2(w_.db_, sql, -1, &stmt_, nullptr) != SQLITE_OK)
        w_.fail("prepare a statement");
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement() { sqlite3_finalize(stmt_); }

    template <typename... Values>
    void row(const Values&... values) {
      int column = 0;
      (bind(++column, values), ...);
      if (sqlite3_step(stmt_) != SQLITE_DONE) w_.fail("append a row");
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }

    // For statements that return one integer (RETURNING …).
    template <typename... Values>
    std::int64_t row_id(const Values&... values) {
      int column = 0;
      (bind(++column, values), ...);
      if (sqlite3_step(stmt_) != SQLITE_ROW) w_.fail("append a row");
      const std::int64_t id = sqlite3_column_int64(stmt_, 0);
      if (sqlite3_step(stmt_) != SQLITE_DONE) w_.fail("append a row");
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
      return id;
    }

   private:
    void bind(int column, const std::string& text) {
      // SQLITE_TRANSIENT: SQLite copies the text, so the caller's string may go away.
      check(sqlite3_bind_text(stmt_, column, text.data(), static_cast<int>(text.size()),
                              SQLITE_TRANSIENT));
    }
    void bind(int column, double value) { check(sqlite3_bind_double(stmt_, column, value)); }
    void bind(int column, const std::optional<double>& value) {
      check(value ? sqlite3_bind_double(stmt_, column, *value) : sqlite3_bind_null(stmt_, column));
    }
    template <std::integral Int>
    void bind(int column, Int value) {
      check(sqlite3_bind_int64(stmt_, column, static_cast<sqlite3_int64>(value)));
    }
    void check(int status) const {
      if (status != SQLITE_OK) w_.fail("bind a value");
    }

    const Writer& w_;
    sqlite3_stmt* stmt_ = nullptr;
  };

 private:
  sqlite3* db_;
  const std::string& path_;
};

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string peer_list(const std::vector<std::int32_t>& peers) {
  std::string text;
  for (const std::int32_t p : peers) {
    if (!text.empty()) text += ',';
    text += std::to_string(p);
  }
  return text;
}

int schema_version(const Writer& w) {
  Writer::Statement query(w, "PRAGMA user_version");
  return static_cast<int>(query.row_id());
}

std::int64_t insert_run(const Writer& w, const AnalysisResult& r) {
  Writer::Statement run(
      w,
      "INSERT INTO runs (analyzed_at, tool_version, trace_path, program, world_size, duration_s,"
      " total_time_s, total_mpi_time_s, findings, instances)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING run_id");
  return run.row_id(utc_now(), r.tool_version, r.trace.path, r.trace.program, r.trace.world_size,
                    r.trace.duration_s, r.summary.total_time_s, r.summary.total_mpi_time_s,
                    r.summary.findings, r.summary.instances);
}

void insert_ranks(const Writer& w, std::int64_t run_id, const AnalysisResult& r) {
  Writer::Statement rank(w,
                         "INSERT INTO ranks (run_id, rank, node, threads, time_s, mpi_time_s)"
                         " VALUES (?, ?, ?, ?, ?, ?)");
  for (const RankSummary& s : r.ranks)
    rank.row(run_id, s.rank, s.node, s.threads, s.time_s, s.mpi_time_s);
}

// Inserts a call site unless present; gives its id either way.
class CallSites {
 public:
  explicit CallSites(const Writer& w)
      : site_(w,
              "INSERT INTO call_sites (file, line, function) VALUES (?, ?, ?)"
              // The no-op update makes RETURNING give the id of a call site that exists.
              " ON CONFLICT (file, line, function) DO UPDATE SET line = excluded.line"
              " RETURNING call_site_id") {}
  std::int64_t id(const std::string& file, std::uint32_t line, const std::string& function) {
    return site_.row_id(file, line, function);
  }

 private:
  Writer::Statement site_;
};

void insert_findings(const Writer& w, std::int64_t run_id, const AnalysisResult& r) {
  CallSites site(w);
  Writer::Statement finding(
      w,
      "INSERT INTO findings (run_id, pattern, rank, thread, call_site_id, mpi_function, peers,"
      " occurrences, wait_time_s, max_wait_s, comment, recommendation)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING finding_id");
  Writer::Statement peer_thread(
      w, "INSERT INTO finding_peer_threads (finding_id, rank, thread) VALUES (?, ?, ?)");
  for (const Finding& f : r.findings) {
    const std::int64_t site_id = site.id(f.file, f.line, f.function);
    const std::int64_t id = finding.row_id(
        run_id, f.pattern, f.rank, f.thread, site_id, f.mpi_function, peer_list(f.peers),
        f.occurrences, f.wait_time_s, f.max_wait_s, f.comment, f.recommendation);
    for (std::size_t i = 0; i < f.peer_threads.size() && i < f.peers.size(); ++i)
      for (const std::int32_t thread : f.peer_threads[i]) peer_thread.row(id, f.peers[i], thread);
  }
}

void insert_pattern_totals(const Writer& w, std::int64_t run_id, const AnalysisResult& r) {
  Writer::Statement total(w,
                          "INSERT INTO pattern_totals (run_id, pattern, findings, occurrences,"
                          " wait_time_s, percent_of_total_time) VALUES (?, ?, ?, ?, ?, ?)");
  for (const PatternTotal& p : r.summary.patterns)
    total.row(run_id, p.pattern, p.findings, p.occurrences, p.wait_time_s, p.percent_of_total_time);
}

void insert_comm_matrix(const Writer& w, std::int64_t run_id, const AnalysisResult& r) {
  Writer::Statement cell(
      w,
      "INSERT INTO comm_matrix (run_id, sender, receiver, messages, bytes, transfer_min_s,"
      " transfer_median_s, transfer_mean_s, transfer_max_s, transfer_stddev_s)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const CommPair& c : r.communication)
    cell.row(run_id, c.sender, c.receiver, c.messages, c.bytes, c.transfer_min_s,
             c.transfer_median_s, c.transfer_mean_s, c.transfer_max_s, c.transfer_stddev_s);
}

void insert_operation_stats(const Writer& w, std::int64_t run_id, const AnalysisResult& r) {
  Writer::Statement op(
      w,
      "INSERT INTO operation_stats (run_id, function, bytes_min, bytes_max, count, total_s,"
      " mean_s, min_s, max_s, percent_of_mpi_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const OperationStats& o : r.operations)
    op.row(run_id, o.function, o.bytes_min, o.bytes_max, o.count, o.total_s, o.mean_s, o.min_s,
           o.max_s, o.percent_of_mpi_time);
}

void insert_root_causes(const Writer& w, std::int64_t run_id, const CauseAnalysis& c) {
  CallSites site(w);
  Writer::Statement cause(
      w,
      "INSERT INTO root_causes (run_id, position, rank, thread, call_site_id, mpi_function,"
      " start_call_site_id, start_mpi_function, occurrences, segment_time_s, others_mean_time_s,"
      " short_term_cost_s, long_term_cost_s, gain_s, gain_percent)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  Writer::Statement caused(w,
                           "INSERT INTO caused_waits (run_id, position, rank, thread, call_site_id,"
                           " short_term_cost_s, long_term_cost_s) VALUES (?, ?, ?, ?, ?, ?, ?)");
  Writer::Statement estimate(w,
                             "INSERT INTO root_cause_estimates (run_id, position, gain_basis,"
                             " target_time_s) VALUES (?, ?, ?, ?)");
  Writer::Statement caller(w,
                           "INSERT INTO root_cause_call_paths (run_id, position, depth,"
                           " call_site_id) VALUES (?, ?, ?, ?)");
  std::int64_t position = 0;
  for (const RootCause& r : c.root_causes) {
    const SegmentDescription& s = r.segment;
    ++position;
    cause.row(run_id, position, r.rank, r.thread, site.id(s.file, s.line, s.function),
              s.mpi_function, site.id(s.start_file, s.start_line, ""), s.start_mpi_function,
              r.occurrences, r.segment_time_s, r.others_mean_time_s, r.short_term_cost_s,
              r.long_term_cost_s, r.gain_s, r.gain_percent);
    estimate.row(run_id, position, std::string(gain_basis_name(r.gain_basis)), r.target_time_s);
    std::int64_t depth = 0;
    for (const SourceFrame& f : s.call_path)
      caller.row(run_id, position, ++depth, site.id(f.file, f.line, f.function));
    for (const CausedWait& v : r.caused_waits)
      caused.row(run_id, position, v.rank, v.thread, site.id(v.file, v.line, v.function),
                 v.short_term_cost_s, v.long_term_cost_s);
  }
}

void insert_critical_path(const Writer& w, std::int64_t run_id, const CauseAnalysis& c) {
  const CriticalPathSummary& p = c.critical_path;
  Writer::Statement path(w,
                         "INSERT INTO critical_paths (run_id, length_s, hops, compute_s, mpi_s,"
                         " waits, total_wait_s, residual_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  path.row(run_id, p.length_s, p.hops, p.compute_s, p.mpi_s, c.delay.waits, c.delay.total_wait_s,
           c.delay.residual_s);
  CallSites site(w);
  Writer::Statement share(
      w,
      "INSERT INTO critical_path_shares (run_id, kind, position, call_site_id, mpi_function,"
      " time_s, share, mean_per_rank_s, imbalance_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  std::int64_t position = 0;
  for (const CriticalPathSegment& s : p.segments)
    share.row(run_id, std::string("segment"), ++position,
              site.id(s.segment.file, s.segment.line, s.segment.function), s.segment.mpi_function,
              s.time_s, s.share, std::optional<double>(s.mean_per_rank_s),
              std::optional<double>(s.imbalance_s));
  position = 0;
  for (const CriticalPathCallSite& s : p.call_sites)
    share.row(run_id, std::string("mpi_call"), ++position, site.id(s.file, s.line, ""),
              s.mpi_function, s.time_s, s.share, std::optional<double>(), std::optional<double>());
}

void insert_pop(const Writer& w, std::int64_t run_id, const PopEfficiencies& p) {
  Writer::Statement pop(
      w,
      "INSERT INTO pop_efficiencies (run_id, region, runtime_s, ideal_runtime_s, mean_useful_s,"
      " max_useful_s, load_balance, communication_efficiency, serialization_efficiency,"
      " transfer_efficiency, parallel_efficiency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  pop.row(run_id, p.region, p.runtime_s, p.ideal_runtime_s, p.mean_useful_s, p.max_useful_s,
          p.load_balance, p.communication_efficiency, p.serialization_efficiency,
          p.transfer_efficiency, p.parallel_efficiency);
  Writer::Statement rank(
      w, "INSERT INTO pop_ranks (run_id, rank, useful_s, mpi_s) VALUES (?, ?, ?, ?)");
  for (const PopRank& r : p.ranks) rank.row(run_id, r.rank, r.useful_s, r.mpi_s);
}

}  // namespace

std::int64_t append_run_to_database(const AnalysisResult& result, const std::string& path) {
  sqlite3* raw = nullptr;
  const int opened =
      sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  const Database db(raw);  // closes even when opening failed
  Writer w(raw, path);
  if (opened != SQLITE_OK) w.fail("open the file");
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  // WAL lets readers (sqlite3, scripts) query while an analyzer appends.
  w.exec_when_unlocked("PRAGMA journal_mode = WAL", "switch to write-ahead logging");
  // IMMEDIATE takes the write lock up front, so two analyzers never both read the schema
  // version and then race to create the tables.
  w.exec("BEGIN IMMEDIATE", "start a transaction");
  try {
    const int version = schema_version(w);
    if (version > kSqliteSchemaVersion)
      throw DatabaseError("the database '" + path + "' has schema version " +
                          std::to_string(version) + ", newer than this analyzer's " +
                          std::to_string(kSqliteSchemaVersion) +
                          "; use a newer analyzer or another file");
    w.exec(kSqliteSchema, "create the tables");
    w.exec(("PRAGMA user_version = " + std::to_string(kSqliteSchemaVersion)).c_str(),
           "set the schema version");
    const std::int64_t run_id = insert_run(w, result);
    insert_ranks(w, run_id, result);
    insert_findings(w, run_id, result);
    insert_pattern_totals(w, run_id, result);
    insert_comm_matrix(w, run_id, result);
    insert_operation_stats(w, run_id, result);
    if (result.causes) {
      insert_root_causes(w, run_id, *result.causes);
      insert_critical_path(w, run_id, *result.causes);
      insert_pop(w, run_id, result.causes->pop);
    }
    w.exec("COMMIT", "commit the run");
    return run_id;
  } catch (...) {
    sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace collwrap
