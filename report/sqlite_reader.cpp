#include "sqlite_reader.h"

#include <sqlite3.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <unordered_map>

#include "sqlite_schema.h"

namespace collwrap {
namespace {

struct CloseDatabase {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct FinalizeStatement {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

// A read-only connection that runs one query at a time, binding the run id to every '?'.
class DatabaseReader {
 public:
  explicit DatabaseReader(const std::string& path) : path_(path) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) fail("open it");
  }

  bool has_table(const char* name) {
    bool found = false;
    each("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + std::string(name) + "'",
         -1, [&](sqlite3_stmt*) { found = true; });
    return found;
  }

  // Calls `row` for each row of `sql`, with `run_id` bound to its parameters.
  void each(const std::string& sql, std::int64_t run_id,
            const std::function<void(sqlite3_stmt*)>& row) {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &raw, nullptr) != SQLITE_OK)
      fail("read it (is it a collwrap results database?)");
    std::unique_ptr<sqlite3_stmt, FinalizeStatement> stmt(raw);
    for (int i = 1; i <= sqlite3_bind_parameter_count(raw); ++i) sqlite3_bind_int64(raw, i, run_id);
    int rc;
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) row(raw);
    if (rc != SQLITE_DONE) fail("read it");
  }

 private:
  [[noreturn]] void fail(const std::string& doing) {
    throw DatabaseError("cannot " + doing + ": results database '" + path_ +
                        "': " + sqlite3_errmsg(db_.get()));
  }
  std::string path_;
  std::unique_ptr<sqlite3, CloseDatabase> db_;
};

std::string text(sqlite3_stmt* s, int column) {
  const unsigned char* t = sqlite3_column_text(s, column);
  return t ? reinterpret_cast<const char*>(t) : "";
}
double real(sqlite3_stmt* s, int column) {
  return sqlite3_column_double(s, column);
}
std::int64_t integer(sqlite3_stmt* s, int column) {
  return sqlite3_column_int64(s, column);
}
std::optional<double> optional_real(sqlite3_stmt* s, int column) {
  if (sqlite3_column_type(s, column) == SQLITE_NULL) return std::nullopt;
  return real(s, column);
}

std::vector<std::int32_t> peers_of(const std::string& list) {
  std::vector<std::int32_t> peers;
  for (std::size_t start = 0; start < list.size();) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    peers.push_back(std::stoi(list.substr(start, end - start)));
    start = end + 1;
  }
  return peers;
}

void read_causes(DatabaseReader& db, std::int64_t run_id, AnalysisResult& result) {
  if (!db.has_table("root_causes") || !db.has_table("pop_efficiencies")) return;
  CauseAnalysis causes;
  bool any = false;
  db.each(
      "SELECT r.rank, r.thread, c.file, c.line, c.function, r.mpi_function, s.file, s.line, "
      "r.start_mpi_function, r.occurrences, r.segment_time_s, r.others_mean_time_s, "
      "r.short_term_cost_s, r.long_term_cost_s, r.gain_s, r.gain_percent FROM root_causes r "
      "JOIN call_sites c ON c.call_site_id = r.call_site_id JOIN call_sites s ON "
      "s.call_site_id = r.start_call_site_id WHERE r.run_id = ? ORDER BY r.position",
      run_id, [&](sqlite3_stmt* s) {
        any = true;
        RootCause r;
        r.rank = static_cast<std::int32_t>(integer(s, 0));
        r.thread = static_cast<std::int32_t>(integer(s, 1));
        r.segment = {.file = text(s, 2),
                     .line = static_cast<std::uint32_t>(integer(s, 3)),
                     .function = text(s, 4),
                     .mpi_function = text(s, 5),
                     .start_file = text(s, 6),
                     .start_line = static_cast<std::uint32_t>(integer(s, 7)),
                     .start_mpi_function = text(s, 8),
                     .call_path = {}};  // from root_cause_call_paths below
        r.occurrences = static_cast<std::uint64_t>(integer(s, 9));
        r.segment_time_s = real(s, 10);
        r.others_mean_time_s = real(s, 11);
        r.short_term_cost_s = real(s, 12);
        r.long_term_cost_s = real(s, 13);
        r.gain_s = optional_real(s, 14);
        r.gain_percent = optional_real(s, 15);
        causes.root_causes.push_back(std::move(r));
      });
  db.each(
      "SELECT region, runtime_s, ideal_runtime_s, mean_useful_s, max_useful_s, load_balance, "
      "communication_efficiency, serialization_efficiency, transfer_efficiency, "
      "parallel_efficiency FROM pop_efficiencies WHERE run_id = ?",
      run_id, [&](sqlite3_stmt* s) {
        any = true;
        PopEfficiencies& p = causes.pop;
        p.region = text(s, 0);
        p.runtime_s = real(s, 1);
        p.ideal_runtime_s = real(s, 2);
        p.mean_useful_s = real(s, 3);
        p.max_useful_s = real(s, 4);
        p.load_balance = real(s, 5);
        p.communication_efficiency = real(s, 6);
        p.serialization_efficiency = real(s, 7);
        p.transfer_efficiency = real(s, 8);
        p.parallel_efficiency = real(s, 9);
      });
  if (db.has_table("root_cause_estimates"))  // since schema version 3
    db.each("SELECT position, gain_basis, target_time_s FROM root_cause_estimates WHERE run_id = ?",
            run_id, [&](sqlite3_stmt* s) {
              const auto position = static_cast<std::size_t>(integer(s, 0));
              if (position == 0 || position > causes.root_causes.size()) return;
              RootCause& r = causes.root_causes[position - 1];
              r.gain_basis = gain_basis_of(text(s, 1));
              r.target_time_s = real(s, 2);
            });
  if (db.has_table("root_cause_call_paths"))  // since schema version 3
    db.each(
        "SELECT p.position, c.file, c.line, c.function FROM root_cause_call_paths p JOIN "
        "call_sites c ON c.call_site_id = p.call_site_id WHERE p.run_id = ? "
        "ORDER BY p.position, p.depth",
        run_id, [&](sqlite3_stmt* s) {
          const auto position = static_cast<std::size_t>(integer(s, 0));
          if (position == 0 || position > causes.root_causes.size()) return;
          causes.root_causes[position - 1].segment.call_path.push_back(
              {text(s, 1), static_cast<std::uint32_t>(integer(s, 2)), text(s, 3)});
        });
  if (db.has_table("pop_ranks"))
    db.each("SELECT rank, useful_s, mpi_s FROM pop_ranks WHERE run_id = ? ORDER BY rank", run_id,
            [&](sqlite3_stmt* s) {
              causes.pop.ranks.push_back({.rank = static_cast<std::int32_t>(integer(s, 0)),
                                          .useful_s = real(s, 1),
                                          .mpi_s = real(s, 2)});
            });
  // Runs analyzed with --no-causes have no rows: like a JSON report without the parts.
  if (any) result.causes = std::move(causes);
}

}  // namespace

AnalysisResult read_database_run(const std::string& path, std::int64_t run_id) {
  DatabaseReader db(path);
  std::int64_t version = 0;
  db.each("PRAGMA user_version", -1, [&](sqlite3_stmt* s) { version = integer(s, 0); });
  if (version > kSqliteSchemaVersion)
    throw DatabaseError("the database '" + path + "' has schema version " +
                        std::to_string(version) + ", newer than this analyzer's " +
                        std::to_string(kSqliteSchemaVersion) + "; use a newer analyzer");
  AnalysisResult result;
  bool found = false;
  db.each(
      "SELECT tool_version, trace_path, program, world_size, duration_s, total_time_s, "
      "total_mpi_time_s, findings, instances FROM runs WHERE run_id = ?",
      run_id, [&](sqlite3_stmt* s) {
        found = true;
        result.tool_version = text(s, 0);
        result.trace.path = text(s, 1);
        result.trace.program = text(s, 2);
        result.trace.world_size = static_cast<std::int32_t>(integer(s, 3));
        result.trace.duration_s = real(s, 4);
        result.summary.total_time_s = real(s, 5);
        result.summary.total_mpi_time_s = real(s, 6);
        result.summary.findings = static_cast<std::uint64_t>(integer(s, 7));
        result.summary.instances = static_cast<std::uint64_t>(integer(s, 8));
      });
  if (!found)
    throw DatabaseError("results database '" + path + "' has no run " + std::to_string(run_id));
  db.each(
      "SELECT rank, node, threads, time_s, mpi_time_s FROM ranks WHERE run_id = ? ORDER BY "
      "rank",
      run_id, [&](sqlite3_stmt* s) {
        result.ranks.push_back({.rank = static_cast<std::int32_t>(integer(s, 0)),
                                .node = text(s, 1),
                                .threads = static_cast<std::uint32_t>(integer(s, 2)),
                                .time_s = real(s, 3),
                                .mpi_time_s = real(s, 4)});
      });
  std::unordered_map<std::int64_t, std::size_t> finding_index;  // finding_id → findings
  db.each(
      "SELECT f.pattern, f.rank, f.thread, c.file, c.line, c.function, f.mpi_function, f.peers, "
      "f.occurrences, f.wait_time_s, f.max_wait_s, f.comment, f.recommendation, f.finding_id "
      "FROM findings f "
      "JOIN call_sites c ON c.call_site_id = f.call_site_id WHERE f.run_id = ? ORDER BY "
      "f.wait_time_s DESC, f.finding_id",
      run_id, [&](sqlite3_stmt* s) {
        Finding f;
        f.pattern = text(s, 0);
        f.rank = static_cast<std::int32_t>(integer(s, 1));
        f.thread = static_cast<std::int32_t>(integer(s, 2));
        f.file = text(s, 3);
        f.line = static_cast<std::uint32_t>(integer(s, 4));
        f.function = text(s, 5);
        f.mpi_function = text(s, 6);
        f.peers = peers_of(text(s, 7));
        f.peer_threads.resize(f.peers.size());
        f.occurrences = static_cast<std::uint64_t>(integer(s, 8));
        f.wait_time_s = real(s, 9);
        f.max_wait_s = real(s, 10);
        f.comment = text(s, 11);
        f.recommendation = text(s, 12);
        finding_index[integer(s, 13)] = result.findings.size();
        result.findings.push_back(std::move(f));
      });
  if (db.has_table("finding_peer_threads"))  // since schema version 4
    db.each(
        "SELECT p.finding_id, p.rank, p.thread FROM finding_peer_threads p JOIN findings f ON "
        "f.finding_id = p.finding_id WHERE f.run_id = ? ORDER BY p.finding_id, p.rank, p.thread",
        run_id, [&](sqlite3_stmt* s) {
          const auto found = finding_index.find(integer(s, 0));
          if (found == finding_index.end()) return;
          Finding& f = result.findings[found->second];
          const auto rank = std::find(f.peers.begin(), f.peers.end(), integer(s, 1));
          if (rank == f.peers.end()) return;
          f.peer_threads[static_cast<std::size_t>(rank - f.peers.begin())].push_back(
              static_cast<std::int32_t>(integer(s, 2)));
        });
  db.each(
      "SELECT pattern, findings, occurrences, wait_time_s, percent_of_total_time FROM "
      "pattern_totals WHERE run_id = ? ORDER BY rowid",
      run_id, [&](sqlite3_stmt* s) {
        result.summary.patterns.push_back({.pattern = text(s, 0),
                                           .description = {},
                                           .findings = static_cast<std::uint64_t>(integer(s, 1)),
                                           .occurrences = static_cast<std::uint64_t>(integer(s, 2)),
                                           .wait_time_s = real(s, 3),
                                           .percent_of_total_time = real(s, 4)});
        result.summary.options.patterns.push_back(text(s, 0));
      });
  db.each(
      "SELECT function, bytes_min, bytes_max, count, total_s, mean_s, min_s, max_s, "
      "percent_of_mpi_time FROM operation_stats WHERE run_id = ? ORDER BY total_s DESC",
      run_id, [&](sqlite3_stmt* s) {
        result.operations.push_back({.function = text(s, 0),
                                     .bytes_min = static_cast<std::uint64_t>(integer(s, 1)),
                                     .bytes_max = static_cast<std::uint64_t>(integer(s, 2)),
                                     .count = static_cast<std::uint64_t>(integer(s, 3)),
                                     .total_s = real(s, 4),
                                     .mean_s = real(s, 5),
                                     .min_s = real(s, 6),
                                     .max_s = real(s, 7),
                                     .percent_of_mpi_time = real(s, 8)});
      });
  read_causes(db, run_id, result);
  return result;
}

std::vector<std::int64_t> database_run_ids(const std::string& path) {
  DatabaseReader db(path);
  std::vector<std::int64_t> ids;
  db.each("SELECT run_id FROM runs ORDER BY run_id", -1,
          [&](sqlite3_stmt* s) { ids.push_back(integer(s, 0)); });
  return ids;
}

}  // namespace collwrap
