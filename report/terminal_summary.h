// The summary printed after an analysis: worst findings first with file:line, idle time and
// recommendation, then totals per pattern, MPI time per rank, matching and clock quality,
// and warnings. Meant to be read at a glance.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>

#include "analysis_result.h"

namespace collwrap {

struct TerminalOptions {
  std::size_t top = 10;  // findings listed
  // Source files under this directory are shown relative to it; empty: as recorded.
  std::filesystem::path base_dir{};
};

void write_terminal_summary(const AnalysisResult& result, const TerminalOptions& options,
                            std::ostream& out);

}  // namespace collwrap
