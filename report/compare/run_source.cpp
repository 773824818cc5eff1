#include "run_source.h"

#include <charconv>
#include <filesystem>
#include <fstream>

#include "json_report_reader.h"
#include "sqlite_reader.h"

namespace collwrap {
namespace {

namespace fs = std::filesystem;

// The first bytes of a file, to tell a database from a JSON report without trusting names.
std::string file_start(const std::string& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string start(bytes, '\0');
  in.read(start.data(), static_cast<std::streamsize>(bytes));
  start.resize(static_cast<std::size_t>(in.gcount()));
  return start;
}

bool is_database(const std::string& path) {
  return file_start(path, 16) == std::string("SQLite format 3\0", 16);
}

bool is_json(const std::string& path) {
  for (char c : file_start(path, 256))
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c == '{';
  return false;
}

std::string run_list(const std::string& path) {
  std::string list;
  try {
    for (std::int64_t id : database_run_ids(path))
      list += (list.empty() ? "" : ", ") + std::to_string(id);
  } catch (const DatabaseError&) {
  }
  return list.empty() ? "none" : list;
}

}  // namespace

RunSource parse_run_source(std::string_view argument) {
  RunSource source{.path = std::string(argument), .label = std::string(argument)};
  std::error_code ec;
  if (const std::size_t hash = argument.rfind('#');
      hash != std::string_view::npos && !fs::exists(source.path, ec)) {
    source.kind = RunSourceKind::Database;
    source.path = std::string(argument.substr(0, hash));
    const std::string_view id = argument.substr(hash + 1);
    const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), source.run_id);
    if (error != std::errc() || end != id.data() + id.size())
      throw RunSourceError("'" + std::string(argument) +
                           "': the run id after '#' must be a whole number, e.g. runs.db#3");
    if (!fs::is_regular_file(source.path, ec) || !is_database(source.path))
      throw RunSourceError("'" + source.path +
                           "' is not a results database; write one with analyzer TRACE --sqlite "
                           "FILE and name a run as FILE#RUN_ID");
    return source;
  }
  if (fs::is_directory(source.path, ec) || source.path.ends_with(".otf2")) return source;
  if (!fs::exists(source.path, ec))
    throw RunSourceError("'" + source.path +
                         "' does not exist; give an archive directory, a JSON report "
                         "(analyzer --json) or DATABASE#RUN_ID");
  if (is_database(source.path))
    throw RunSourceError("'" + source.path + "' is a results database: name one of its runs as " +
                         source.path + "#RUN_ID (runs: " + run_list(source.path) + ")");
  if (!is_json(source.path))
    throw RunSourceError("'" + source.path +
                         "' is neither an archive nor a JSON report nor a results database");
  source.kind = RunSourceKind::JsonReport;
  return source;
}

ComparedRun load_run(const RunSource& source, const ArchiveAnalyzer& analyze) {
  ComparedRun run{.label = source.label};
  switch (source.kind) {
    case RunSourceKind::Archive:
      run.result = analyze(source.path);
      break;
    case RunSourceKind::JsonReport: {
      std::ifstream in(source.path);
      try {
        run.result = read_json_report(in);
      } catch (const ReportReadError& e) {
        throw RunLoadError("cannot read the report '" + source.path + "': " + e.what() +
                           "; write it again with analyzer TRACE --json FILE");
      }
      break;
    }
    case RunSourceKind::Database:
      try {
        run.result = read_database_run(source.path, source.run_id);
      } catch (const DatabaseError& e) {
        throw RunLoadError(std::string(e.what()) + " (runs: " + run_list(source.path) + ")");
      }
      break;
  }
  return run;
}

}  // namespace collwrap
