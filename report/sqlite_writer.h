// The results database (--sqlite): each analysis appends one run, so runs of a program can be
// compared over time with SQL. Schema and example queries: share/sql/.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "analysis_result.h"

namespace collwrap {

// The database cannot be opened or written; what() names the file and SQLite's reason.
struct DatabaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Creates the database and its tables if needed, then appends the result as a new run in one
// transaction (all of it or nothing). Safe against other analyzers appending to the same file
// at the same time: they wait for each other. Returns the new run's run_id.
std::int64_t append_run_to_database(const AnalysisResult& result, const std::string& path);

}  // namespace collwrap
