#include "report_writers.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "html_heatmap.h"
#include "html_report.h"
#include "json_report.h"
#include "matrix_csv.h"
#include "sarif_writer.h"
#include "sqlite_writer.h"

namespace collwrap {
namespace {

constexpr std::array kWriters =
    std::to_array<ReportWriter>(
        {
            {.option = "--json",
             .help = "write the JSON report to FILE ('-' = standard output;\n"
                     "the summary then goes to standard error)",
             .name = "JSON report",
             .standard_output = true,
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_json_report(in.result, out);
                   return TimelineCounts{};
                 }},
            {.option = "--sqlite",
             .help = "append this analysis as a new run to the SQLite database\n"
                     "FILE (created if needed; schema in share/collwrap/sql)",
             .name = "SQLite database",
             .to_path =
                 [](const ReportInput& in, const std::string& path) {
                   append_run_to_database(in.result, path);
                   return TimelineCounts{};
                 }},
            {.option = "--sarif",
             .help = "write the findings and the root causes as a SARIF 2.1.0\n"
                     "log to FILE",
             .name = "SARIF log",
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_sarif(in.result, out);
                   return TimelineCounts{};
                 }},
            {.option = "--matrix-csv",
             .help = "write the communication matrix (messages, bytes and\n"
                     "transfer times per sender and receiver) as CSV to FILE",
             .name = "communication matrix",
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_matrix_csv(in.result, out);
                   return TimelineCounts{};
                 }},
            {.option = "--matrix-svg",
             .help = "draw the communication matrix (bytes sent per sender\n"
                     "and receiver) as an SVG heatmap to FILE",
             .name = "communication matrix heatmap",
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_matrix_svg(in.result, MatrixQuantity::Bytes, out);
                   return TimelineCounts{};
                 }},
            {.option = "--timeline",
             .help = "write a timeline of the MPI calls, messages and worst\n"
                     "waits for chrome://tracing or ui.perfetto.dev to FILE",
             .name = "timeline",
             .needs = ReportNeeds::TraceAndMatching,
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   return write_timeline(*in.trace, *in.matching, in.result, in.timeline, out);
                 }},
            {.option = "--html",
             .help = "write a self-contained HTML report (summary, sortable\n"
                     "findings, charts, matrix, timeline) to FILE",
             .name = "HTML report",
             .needs = ReportNeeds::TraceAndMatching,
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   return write_html_report(*in.trace, *in.matching, in.result, in.timeline, out);
                 }},
        });

std::string cannot_write(const ReportWriter& writer, const std::string& path) {
  return "cannot write the " + std::string(writer.name) + " to '" + path +
         "': " + std::strerror(errno) + "; choose a writable path";
}

}  // namespace

std::span<const ReportWriter> report_writers() {
  return kWriters;
}

const ReportWriter* find_report_writer(std::string_view option) {
  for (const ReportWriter& w : kWriters)
    if (w.option == option) return &w;
  return nullptr;
}

std::string write_report(const ReportWriter& writer, const ReportInput& input,
                         const std::string& path, TimelineCounts& counts) {
  if (writer.to_path != nullptr) {
    try {
      counts = writer.to_path(input, path);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return {};
  }
  if (writer.standard_output && path == "-") {
    counts = writer.stream(input, std::cout);
    return std::cout.flush() ? std::string() : cannot_write(writer, path);
  }
  std::ofstream out(path);
  if (!out) return cannot_write(writer, path);
  counts = writer.stream(input, out);
  out.close();
  return out ? std::string() : cannot_write(writer, path);
}

}  // namespace collwrap
