// analyzer compare BASE NEW [MORE...] [options]: did my change help, and how does the program
// scale. Each argument is an archive, a JSON report or DATABASE#RUN_ID (run_source.h); the
// comparison itself is report/compare/.
// Exit status: 0 compared, 1 a run cannot be analyzed or read, 2 usage error, 3 a
// --fail-if-worse threshold was crossed (kExitWorse).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze.h"
#include "compare_report.h"

namespace collwrap {

struct CompareCommandLine {
  bool help = false;
  std::vector<std::string> runs;  // as given, the base first
  CompareOptions compare;         // --scaling, --fail-if-worse
  // The files asked for, by option of compare_writers() ("--html" → "compare.html").
  std::vector<std::pair<std::string_view, std::string>> outputs;
  AnalysisSettings analysis;  // for archives: --patterns, --no-causes
  bool clock_repair = true;   // --no-clock-repair
  std::size_t top = 10;       // --top: rows per table
  bool quiet = false;         // --quiet: no table on the terminal
};

// `args` follow "compare". Throws UsageError.
CompareCommandLine parse_compare_command_line(std::span<const std::string_view> args);

std::string compare_usage_text();

// Runs `analyzer compare` and returns its exit status; messages go to standard error.
int run_compare_command(std::span<const std::string_view> args);

}  // namespace collwrap
