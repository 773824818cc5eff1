// analyzer TRACE --patterns all --json report.json
//
// Reads a collwrap trace, matches it, runs the pattern rules and writes the JSON report and
// the terminal summary. Exit status: 0 done, 1 the trace cannot be analyzed, 2 usage error.
// `analyzer compare ...` compares runs (compare_command.h; exit status 3: worse).
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

#include "analysis_in_job.h"
#include "archive_analysis.h"
#include "command_line.h"
#include "compare_command.h"
#include "compute_grains.h"
#include "job_read.h"
#include "memory_reuse.h"
#include "pattern_list.h"
#include "progress.h"
#include "report_writers.h"
#include "terminal_summary.h"
#include "trace_reader.h"

namespace {

constexpr int kExitBadTrace = 1;
constexpr int kExitUsage = 2;

// --timings: what each phase took (set up by run()). Declared before `progress`, which tells
// it of every phase and so must go first.
std::optional<collwrap::PhaseTimings> timings;

// The progress line of the running analysis (set up by run()), erased before any message.
std::optional<collwrap::ProgressReporter> progress;

// Run as the processes of an MPI job (`mpirun -np K analyzer …`), only process 0 speaks: the
// others read their share of the trace and leave with the same exit status, silently.
std::unique_ptr<collwrap::MpiJob> job;
bool speaks() {
  return !job || job->leads();
}

int fail(int status, const std::string& message) {
  if (progress) progress->finish();
  if (speaks()) std::cerr << "analyzer: " << message << '\n';
  return status;
}

// Whether a report the command line asks for is drawn from the trace and the matching.
bool reports_need_trace(const collwrap::CommandLine& cl) {
  for (const collwrap::ReportWriter& writer : collwrap::report_writers())
    if (writer.needs == collwrap::ReportNeeds::TraceAndMatching && cl.report_path(writer.option))
      return true;
  return false;
}

// Whether the processes of the job can analyze the archive divided, each holding only its
// share (analysis_in_job.h): the rules asked for read no more than what shares exchange, root
// causes only with the clocks repaired, and no report that needs the trace itself (timeline,
// HTML).
bool can_divide(const collwrap::CommandLine& cl, const collwrap::AnalysisSettings& settings) {
  return collwrap::can_divide(settings, cl.clock_repair) && !reports_need_trace(cl);
}

// Reads, matches and analyzes the archive: alone, or with the processes of the MPI job, of
// which only process 0 goes on past reading (nullopt on the others). A job divides the
// analysis when it can.
std::optional<collwrap::ArchiveAnalysis> analyze(const collwrap::CommandLine& cl,
                                                 const collwrap::AnalysisSettings& settings) {
  const collwrap::ArchiveOptions options{.clock_repair = cl.clock_repair,
                                         .keep_trace = reports_need_trace(cl)};
  if (!job) return collwrap::analyze_archive(cl.trace_path, settings, options, &*progress);
  progress->phase("reading");
  if (can_divide(cl, settings)) {
    std::optional<collwrap::AnalysisResult> result = collwrap::analyze_in_job(
        *job, cl.trace_path, settings, cl.clock_repair, collwrap::reading_progress(&*progress),
        [](std::string_view name) { progress->phase(name); });
    if (!result) return std::nullopt;
    return collwrap::ArchiveAnalysis{{}, {}, std::move(*result)};
  }
  std::optional<collwrap::Trace> trace = collwrap::read_trace_in_job(
      *job, cl.trace_path, {cl.threads}, collwrap::reading_progress(&*progress));
  if (!trace) return std::nullopt;
  return collwrap::analyze_read_trace(std::move(*trace), settings, options, &*progress);
}

// Writes the report files the command line asks for, in the order of report_writers(); a
// message saying what failed, or empty. `timeline` gets the counts of a written timeline.
std::string write_reports(const collwrap::CommandLine& cl, const collwrap::Trace& trace,
                          const collwrap::Matching& matching,
                          const collwrap::AnalysisResult& result,
                          collwrap::TimelineCounts& timeline) {
  for (const collwrap::ReportWriter& writer : collwrap::report_writers()) {
    const std::optional<std::string> path = cl.report_path(writer.option);
    if (!path) continue;
    const bool needs_trace = writer.needs == collwrap::ReportNeeds::TraceAndMatching;
    const collwrap::ReportInput input{.result = result,
                                      .trace = needs_trace ? &trace : nullptr,
                                      .matching = needs_trace ? &matching : nullptr,
                                      .timeline = cl.timeline};
    collwrap::TimelineCounts counts;
    if (std::string error = collwrap::write_report(writer, input, *path, counts); !error.empty())
      return error;
    if (needs_trace) timeline = counts;
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
  const collwrap::AnalysisSettings settings{cl.rules,
                                            cl.patterns,
                                            3,
                                            cl.causes,
                                            cl.threads,
                                            noise ? &*noise : nullptr,
                                            cl.noise_path.value_or("")};
  // Only process 0 of a job speaks, so only it keeps timings.
  if (cl.timings && speaks()) timings.emplace();
  // Reading, matching, patterns and writing reports; the clock repair when it is on, and the
  // ghosts' exchange when a job divides the analysis.
  const std::size_t phases = 4 + (cl.clock_repair ? 1 : 0) + (job && can_divide(cl, settings));
  progress.emplace(std::cerr, phases,
                   collwrap::ProgressReporter::Options{
                       .enabled = speaks() && collwrap::progress_wanted(cl.quiet, STDERR_FILENO),
                       .timings = timings ? &*timings : nullptr});
  std::optional<collwrap::ProgressTicker> ticker;
  if (progress->enabled()) ticker.emplace(*progress, std::chrono::milliseconds(200));
  std::optional<collwrap::ArchiveAnalysis> analysis;
  try {
    analysis = analyze(cl, settings);
  } catch (const collwrap::TraceUsageError& e) {  // its message says what to give instead
    return fail(kExitUsage, e.what());
  } catch (const collwrap::TraceReadError& e) {
    return fail(kExitBadTrace,
                std::string(e.what()) + std::string(collwrap::kIncompleteTraceAdvice));
  }
  if (!analysis) return 0;  // a process of the job other than 0: its share went to process 0
  const collwrap::Trace& trace = analysis->trace;
  const collwrap::Matching& matching = analysis->matching;
  collwrap::AnalysisResult& result = analysis->result;

  progress->phase("writing reports");
  collwrap::TimelineCounts timeline;
  if (const std::string error = write_reports(cl, trace, matching, result, timeline);
      !error.empty())
    return fail(kExitUsage, error);
  progress->finish();
  if (timings) timings->write(std::cerr);
  if (timeline.calls_dropped > 0)
    std::cerr << "analyzer: the timeline holds the first " << timeline.calls << " MPI calls, "
              << timeline.calls_dropped
              << " later ones are left out; choose a --time-window or a larger "
                 "--timeline-max-events\n";
  if (!cl.quiet) {
    // With the report on standard output the summary moves aside, so the JSON stays parseable.
    std::ostream& out = cl.report_path("--json") == "-" ? std::cerr : std::cout;
    std::error_code ignored;
    collwrap::write_terminal_summary(result, {cl.top, std::filesystem::current_path(ignored)}, out);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  collwrap::keep_freed_memory_for_reuse();
  job = collwrap::MpiJob::of_launcher();
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  const bool analysis = args.empty() || args.front() != "compare";
  // Everything but an analysis is done once, by process 0.
  if (!speaks() && !analysis) return 0;
  if (!analysis) return collwrap::run_compare_command(std::span(args).subspan(1));
  collwrap::CommandLine cl;
  try {
    cl = collwrap::parse_command_line(args);
  } catch (const collwrap::UsageError& e) {
    return fail(kExitUsage, e.what());
  }
  if (!speaks() && cl.action != collwrap::CommandLine::Action::Analyze) return 0;
  switch (cl.action) {
    case collwrap::CommandLine::Action::Help:
      std::cout << collwrap::usage_text();
      return 0;
    case collwrap::CommandLine::Action::Version:
      std::cout << "analyzer (collwrap) " << COLLWRAP_VERSION << '\n';
      return 0;
    case collwrap::CommandLine::Action::ListPatterns:
      collwrap::write_pattern_list(cl.list_patterns_json ? collwrap::PatternListFormat::Json
                                                         : collwrap::PatternListFormat::Text,
                                   std::cout);
      return 0;
    case collwrap::CommandLine::Action::Analyze:
      break;
  }
  try {
    return run(cl);
  } catch (const std::bad_alloc&) {
    return fail(kExitBadTrace,
                "out of memory; analyze with more processes, each holding a share of the "
                "trace (mpirun -np K analyzer ...), or on a machine with more memory");
  } catch (const std::exception& e) {
    return fail(kExitBadTrace, std::string("cannot analyze this trace: ") + e.what());
  }
}
