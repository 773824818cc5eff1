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
#include "clock_repair.h"
#include "command_line.h"
#include "json_report.h"
#include "matrix_csv.h"
#include "matching.h"
#include "sarif_writer.h"
#include "sqlite_writer.h"
#include "terminal_summary.h"
#include "timeline_writer.h"
#include "trace_reader.h"

namespace {

constexpr int kExitBadTrace = 1;
constexpr int kExitUsage = 2;

int fail(int status, const std::string& message) {
  std::cerr << "analyzer: " << message << '\n';
  return status;
}

// Writes one report file; false (with errno set) when the file cannot be written.
template <typename Write>
bool write_file(const std::string& path, Write write) {
  std::ofstream out(path);
  if (!out) return false;
  write(out);
  out.close();
  return static_cast<bool>(out);
}

// Writes the report where --json says; false (with errno set) when the file cannot be written.
bool write_report(const collwrap::AnalysisResult& result, const std::string& path) {
  if (path == "-") {
    collwrap::write_json_report(result, std::cout);
    return static_cast<bool>(std::cout.flush());
  }
  return write_file(path, [&](std::ostream& out) { collwrap::write_json_report(result, out); });
}

// The outputs besides --json and the summary; a message saying what failed, or empty.
std::string write_other_outputs(const collwrap::CommandLine& cl,
                                const collwrap::AnalysisResult& result) {
  const auto cannot = [](std::string_view what, const std::string& path) {
    return "cannot write the " + std::string(what) + " to '" + path + "': " +
           std::strerror(errno) + "; choose a writable path";
  };
  if (cl.sarif_path &&
      !write_file(*cl.sarif_path, [&](std::ostream& out) { collwrap::write_sarif(result, out); }))
    return cannot("SARIF log", *cl.sarif_path);
  if (cl.matrix_csv_path && !write_file(*cl.matrix_csv_path, [&](std::ostream& out) {
        collwrap::write_matrix_csv(result, out);
      }))
    return cannot("communication matrix", *cl.matrix_csv_path);
  if (cl.sqlite_path) {
    try {
      collwrap::append_run_to_database(result, *cl.sqlite_path);
    } catch (const collwrap::DatabaseError& e) {
      return e.what();
    }
  }
  return {};
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
  collwrap::Matching matching = collwrap::match_trace(trace);
  // The repair keeps every location's event order, so the pairs stay; matching again
  // recounts the violations the patterns will see.
  if (cl.clock_repair && collwrap::repair_clocks(trace, matching).passes > 0)
    matching = collwrap::match_trace(trace);
  const collwrap::AnalysisResult result =
      collwrap::analyze_trace(trace, matching, {cl.rules, cl.patterns});

  if (cl.json_path && !write_report(result, *cl.json_path))
    return fail(kExitUsage, "cannot write the JSON report to '" + *cl.json_path +
                                "': " + std::strerror(errno) + "; choose a writable path");
  if (const std::string error = write_other_outputs(cl, result); !error.empty())
    return fail(kExitUsage, error);
  collwrap::TimelineCounts timeline;
  if (cl.timeline_path && !write_file(*cl.timeline_path, [&](std::ostream& out) {
        timeline = collwrap::write_timeline(trace, matching, result, cl.timeline, out);
      }))
    return fail(kExitUsage, "cannot write the timeline to '" + *cl.timeline_path +
                                "': " + std::strerror(errno) + "; choose a writable path");
  if (timeline.calls_dropped > 0)
    std::cerr << "analyzer: the timeline holds the first " << timeline.calls << " MPI calls, "
              << timeline.calls_dropped
              << " later ones are left out; choose a --time-window or a larger "
                 "--timeline-max-events\n";
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
