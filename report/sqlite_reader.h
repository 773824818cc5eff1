// Reading one run of the results database (sqlite_writer.h appends them) back into the results
// model, for `analyzer compare db.sqlite#RUN_ID`. Fills what a comparison reads: trace facts,
// ranks, findings, pattern totals, operations, root causes and POP efficiencies (schema 2;
// the tables of schema 2 are optional, so databases of schema 1 read too).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis_result.h"
#include "sqlite_writer.h"

namespace collwrap {

// Throws DatabaseError when the file is not a results database or has no such run.
AnalysisResult read_database_run(const std::string& path, std::int64_t run_id);

// The run ids of the database, oldest first (for messages that list what there is).
std::vector<std::int64_t> database_run_ids(const std::string& path);

}  // namespace collwrap
