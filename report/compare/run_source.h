// The arguments of `analyzer compare`: each names a run as an archive (its directory or
// traces.otf2), a JSON report of ours (analyzer --json), or a run of a results database
// (analyzer --sqlite) as DATABASE#RUN_ID.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "run_comparison.h"

namespace collwrap {

// An argument that names no run; what() says what to give instead (a usage error).
struct RunSourceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A run that was named correctly but cannot be read (a damaged report or database).
struct RunLoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class RunSourceKind { Archive, JsonReport, Database };

struct RunSource {
  RunSourceKind kind = RunSourceKind::Archive;
  std::string path;
  std::int64_t run_id = 0;  // Database only
  std::string label;        // the argument as given
};

// Looks at the file system to tell the kinds apart. Throws RunSourceError.
RunSource parse_run_source(std::string_view argument);

// Analyzes an archive (the analyzer's own read → match → patterns, in analyzer/command/).
using ArchiveAnalyzer = std::function<AnalysisResult(const std::string& path)>;

// Reads a report or database run, or has `analyze` analyze an archive. Throws RunLoadError
// for reports and databases; the analyzer's exceptions for archives pass through.
ComparedRun load_run(const RunSource& source, const ArchiveAnalyzer& analyze);

}  // namespace collwrap
