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
             .manual = R"roff(
Write the JSON report to
.IR FILE ;
.B \-
writes it to standard output and moves the summary to standard error. The report follows
.I share/collwrap/schema/report.schema.json
(JSON Schema 2020-12, versioned by its
.B schema_version
field); see
.B JSON REPORT
below.
)roff",
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
             .manual = R"roff(
Append this analysis as a new run to the SQLite database
.I FILE
(created if needed; schema and example queries in
.IR share/collwrap/sql ).
Several runs of one program in one database show how a change moved its wait states.
Root causes, the waits they cause, the critical path and the POP efficiencies have their own
tables (schema version 3).
)roff",
             .name = "SQLite database",
             .to_path =
                 [](const ReportInput& in, const std::string& path) {
                   append_run_to_database(in.result, path);
                   return TimelineCounts{};
                 }},
            {.option = "--sarif",
             .help = "write the findings and the root causes as a SARIF 2.1.0\n"
                     "log to FILE",
             .manual = R"roff(
Write the findings as a SARIF 2.1.0 log, one result per finding at its
.IR file : line ,
for editors and code-scanning views; each root cause (unless
.BR \-\-no\-causes )
follows as a result of the rule
.B root_cause
at the line to change, with the waits it causes as related locations.
)roff",
             .name = "SARIF log",
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_sarif(in.result, out);
                   return TimelineCounts{};
                 }},
            {.option = "--matrix-csv",
             .help = "write the communication matrix (messages, bytes and\n"
                     "transfer times per sender and receiver) as CSV to FILE",
             .manual = R"roff(
Write the communication matrix as CSV: one line per sender and receiver that exchanged
matched point-to-point messages, with the messages, the bytes and the transfer times
(minimum, median, mean, maximum, standard deviation; see
.BR communication " under " "JSON REPORT" ).
)roff",
             .name = "communication matrix",
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_matrix_csv(in.result, out);
                   return TimelineCounts{};
                 }},
            {.option = "--matrix-svg",
             .help = "draw the communication matrix (bytes sent per sender\n"
                     "and receiver) as an SVG heatmap to FILE",
             .manual = R"roff(
Draw the communication matrix as an SVG heatmap: a cell per sender (row) and receiver
(column) rank, coloured by the bytes sent (dark blue: least, yellow: most; grey: nothing
sent), each with its value as a tooltip. Bytes are drawn because they show who talks to whom
independently of the clocks; the mean transfer times are in the HTML report and the CSV.
)roff",
             .name = "communication matrix heatmap",
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   write_matrix_svg(in.result, MatrixQuantity::Bytes, out);
                   return TimelineCounts{};
                 }},
            {.option = "--timeline",
             .help = "write a timeline of the MPI calls, messages and worst\n"
                     "waits for chrome://tracing or ui.perfetto.dev to FILE",
             .manual = R"roff(
Write a timeline in Chrome's trace-event format, which
.I chrome://tracing
and
.I https://ui.perfetto.dev
open: a track per rank and thread, a slice per MPI call (with its
.IR file : line ),
an arrow per matched message, a mark per one-sided put, get or atomic on the track of the
thread that issued it (naming its target), and the worst instances of each finding.
)roff",
             .name = "timeline",
             .needs = ReportNeeds::TraceAndMatching,
             .stream =
                 [](const ReportInput& in, std::ostream& out) {
                   return write_timeline(*in.trace, *in.matching, in.result, in.timeline, out);
                 }},
            {.option = "--html",
             .help = "write a self-contained HTML report (summary, sortable\n"
                     "findings, charts, matrix, timeline) to FILE",
             .manual = R"roff(
Write a self-contained HTML report to
.IR FILE :
one file that opens offline in any current browser and loads nothing (no network access,
no external fonts or scripts; its Content-Security-Policy forbids every fetch). It shows the
summary (trace, ranks, duration, MPI time, idle time per pattern, matching, clock quality,
warnings); the findings, sortable by a click on a column heading (worst first); a bar per rank
of its MPI time, split into useful time and the idle time of each pattern; the communication
matrix as two heatmaps (bytes sent and mean transfer time; left out above 256 ranks, use
.B \-\-matrix\-svg
then); the time per MPI operation; and a timeline of the MPI calls (a row per rank and thread,
a box per call coloured by function, a line per message from the start of the send to the end
of the receive, the worst waits of each finding marked in the pattern's colour) in which a
window is chosen by typing its start and end or by dragging across the picture. The timeline
holds what
.B \-\-timeline
would, so
.B \-\-time\-window
and
.B \-\-timeline\-max\-events
apply to it. The page needs JavaScript; its data is the JSON report plus the timeline, inside
the file.
)roff",
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
