// Every report file the analyzer can write, in one table: the option that asks for it, its
// --help text, its man page entry, what it reads and how it is written. The command line,
// --help, the man page and main() only iterate this table, so a new format is its writer file,
// a row in report_writers.cpp and its test.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "analysis_result.h"
#include "matching.h"
#include "timeline_writer.h"
#include "trace_model.h"

namespace collwrap {

// What a writer reads besides the analysis result.
enum class ReportNeeds { Result, TraceAndMatching };

struct ReportInput {
  const AnalysisResult& result;
  const Trace* trace = nullptr;  // set only for writers that need it
  const Matching* matching = nullptr;
  const TimelineOptions& timeline;  // --time-window, --timeline-max-events
};

struct ReportWriter {
  std::string_view option;  // "--sarif"; the value is a FILE
  std::string_view help;    // for --help: what is written to FILE; '\n' starts a new line
  // analyzer(1)'s entry for the option under OPTIONS, in roff, after its tag line: the build
  // writes it into the installed man page (analyzer/command/man_page.cpp).
  std::string_view manual;
  std::string_view name;  // "SARIF log", as in "cannot write the SARIF log to ..."
  ReportNeeds needs = ReportNeeds::Result;
  bool standard_output = false;  // FILE "-" means standard output
  // Writes the report. Formats that keep their own file (a database) leave `stream` null and
  // give `to_path`, which throws std::runtime_error with a message that says what to do.
  // Both return the timeline's counts when they write a timeline, zeros otherwise.
  TimelineCounts (*stream)(const ReportInput& input, std::ostream& out) = nullptr;
  TimelineCounts (*to_path)(const ReportInput& input, const std::string& path) = nullptr;
};

// In the order of --help; the reports are written in this order too.
std::span<const ReportWriter> report_writers();

// The writer for --option, or null.
const ReportWriter* find_report_writer(std::string_view option);

// Writes one report to `path` ("-": standard output, where the writer allows it). Returns an
// error message that says what to do, or empty; `counts` gets the timeline's counts.
std::string write_report(const ReportWriter& writer, const ReportInput& input,
                         const std::string& path, TimelineCounts& counts);

}  // namespace collwrap
