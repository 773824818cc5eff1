// analyzer TRACE --patterns all --json report.json
//
// Reads a collwrap trace, matches it, runs the pattern rules and writes the JSON report and
// the terminal summary. Exit status: 0 done, 1 the trace cannot be analyzed, 2 usage error.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <string_view>
#include <vector>

#include "analyze.h"
#include "command_line.h"
#include "json_report.h"
#include "matching.h"
#include "terminal_summary.h"
#include "trace_reader.h"

namespace {

constexpr int kExitBadTrace = 1;
constexpr int kExitUsage = 2;

int fail(int status, const std::string& message) {
  std::cerr << "analyzer: " << message << '\n';
  return status;
}

// Writes the report where --json says; false (with errno set) when the file cannot be written.
bool write_report(const collwrap::AnalysisResult& result, const std::string& path) {
  if (path == "-") {
    collwrap::write_json_report(result, std::cout);
    return static_cast<bool>(std::cout.flush());
  }
  std::ofstream out(path);
  if (!out) return false;
  collwrap::write_json_report(result, out);
  out.close();
  return static_cast<bool>(out);
}

int run(const collwrap::CommandLine& cl) {
  collwrap::Trace trace;
  try {
    trace = collwrap::read_trace(cl.trace_path);
  } catch (const collwrap::TraceUsageError& e) {  // its message says what to give instead
    return fail(kExitUsage, e.what());
  } catch (const collwrap::TraceReadError& e) {
    return fail(kExitBadTrace, std::string(e.what()) +
                                   "; nothing can be analyzed: trace the program again (an archive "
                                   "is complete once every rank has passed MPI_Finalize)");
  }
  const collwrap::Matching matching = collwrap::match_trace(trace);
  const collwrap::AnalysisResult result =
      collwrap::analyze_trace(trace, matching, {cl.rules, cl.patterns});

  if (cl.json_path && !write_report(result, *cl.json_path))
    return fail(kExitUsage, "cannot write the JSON report to '" + *cl.json_path +
                                "': " + std::strerror(errno) + "; choose a writable path");
  if (!cl.quiet) {
    // With the report on standard output the summary moves aside, so the JSON stays parseable.
    std::ostream& out = cl.json_path == "-" ? std::cerr : std::cout;
    std::error_code ignored;
    collwrap::write_terminal_summary(result, {cl.top, std::filesystem::current_path(ignored)}, out);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  collwrap::CommandLine cl;
  try {
    cl = collwrap::parse_command_line(args);
  } catch (const collwrap::UsageError& e) {
    return fail(kExitUsage, e.what());
  }
  switch (cl.action) {
    case collwrap::CommandLine::Action::Help:
      std::cout << collwrap::usage_text();
      return 0;
    case collwrap::CommandLine::Action::Version:
      std::cout << "analyzer (collwrap) " << COLLWRAP_VERSION << '\n';
      return 0;
    case collwrap::CommandLine::Action::Analyze:
      break;
  }
  try {
    return run(cl);
  } catch (const std::bad_alloc&) {
    return fail(kExitBadTrace,
                "out of memory; analyze on a machine with more memory or trace fewer ranks");
  } catch (const std::exception& e) {
    return fail(kExitBadTrace, std::string("cannot analyze this trace: ") + e.what());
  }
}
