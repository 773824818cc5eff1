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
#include <optional>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "analyze.h"
#include "clock_repair.h"
#include "command_line.h"
#include "compute_grains.h"
#include "json_report.h"
#include "html_heatmap.h"
#include "html_report.h"
#include "matrix_csv.h"
#include "matching.h"
#include "progress.h"
#include "sarif_writer.h"
#include "sqlite_writer.h"
#include "terminal_summary.h"
#include "timeline_writer.h"
#include "trace_reader.h"

namespace {

constexpr int kExitBadTrace = 1;
constexpr int kExitUsage = 2;

// The progress line of the running analysis (set up by run()), erased before any message.
std::optional<collwrap::ProgressReporter> progress;

int fail(int status, const std::string& message) {
  if (progress) progress->finish();
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
  if (cl.matrix_svg_path && !write_file(*cl.matrix_svg_path, [&](std::ostream& out) {
        collwrap::write_matrix_svg(result, collwrap::MatrixQuantity::Bytes, out);
      }))
    return cannot("communication matrix heatmap", *cl.matrix_svg_path);
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
  // A bad noise file is found before the trace is read.
  std::optional<collwrap::noise::NoiseRecord> noise;
  if (cl.noise_path) {
    try {
      noise = collwrap::noise::read_noise_file(*cl.noise_path);
    } catch (const collwrap::noise::NoiseFileError& e) {
      return fail(kExitUsage, "cannot read the noise file '" + *cl.noise_path + "': " + e.what() +
                                  "; give a file written by 'collwrap-bench noise --save FILE'");
    }
  }
  progress.emplace(std::cerr, cl.clock_repair ? 5 : 4,
                   collwrap::ProgressReporter::Options{
                       .enabled = collwrap::progress_wanted(cl.quiet, STDERR_FILENO)});
  std::optional<collwrap::ProgressTicker> ticker;
  if (progress->enabled()) ticker.emplace(*progress, std::chrono::milliseconds(200));
  progress->phase("reading");
  collwrap::Trace trace;
  try {
    trace = collwrap::read_trace(cl.trace_path, {},
                                 [](double fraction) { progress->progress(fraction); });
  } catch (const collwrap::TraceUsageError& e) {  // its message says what to give instead
    return fail(kExitUsage, e.what());
  } catch (const collwrap::TraceReadError& e) {
    return fail(kExitBadTrace, std::string(e.what()) +
                                   "; nothing can be analyzed: trace the program again (an archive "
                                   "is complete once every rank has passed MPI_Finalize)");
  }
  progress->phase("matching");
  collwrap::Matching matching = collwrap::match_trace(trace);
  if (cl.clock_repair) progress->phase("clock repair");
  // The repair keeps every location's event order, so the pairs stay; matching again
  // recounts the violations the patterns will see.
  if (cl.clock_repair && collwrap::repair_clocks(trace, matching).passes > 0)
    matching = collwrap::match_trace(trace);
  progress->phase("patterns");
  collwrap::AnalysisResult result =
      collwrap::analyze_trace(trace, matching, {cl.rules, cl.patterns, 3, cl.causes});
  if (noise)
    result.noise = collwrap::predict_noise_waiting(trace, result.summary, *noise, *cl.noise_path);

  progress->phase("writing reports");
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
  if (cl.html_path && !write_file(*cl.html_path, [&](std::ostream& out) {
        timeline = collwrap::write_html_report(trace, matching, result, cl.timeline, out);
      }))
    return fail(kExitUsage, "cannot write the HTML report to '" + *cl.html_path +
                                "': " + std::strerror(errno) + "; choose a writable path");
  progress->finish();
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
