// The HTML report (--html): one self-contained page that works offline and fetches nothing,
// with the summary, the findings (sortable), MPI time per rank, the communication matrix, the
// time per operation and a timeline of a window that the reader can zoom.
//
// The C++ side only fills the page template (report/html_template.html with html_report.css
// and html_report.js, compiled in by report/CMakeLists.txt): the analysis result and the
// timeline's calls and messages go into a JSON block that the page's script renders, the
// heatmaps are SVG from write_heatmap_svg. The timeline shows what --timeline would
// (select_timeline with the same --time-window and --timeline-max-events).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "analysis_result.h"
#include "matching.h"
#include "timeline_writer.h"
#include "trace_model.h"

namespace collwrap {

// Worlds larger than this get no heatmap in the page (its SVG grows with ranks²); the page
// points to --matrix-svg and --matrix-csv instead.
inline constexpr std::int32_t kHtmlHeatmapMaxRanks = 256;

TimelineCounts write_html_report(const Trace& trace, const Matching& matching,
                                 const AnalysisResult& result, const TimelineOptions& options,
                                 std::ostream& out);

// JSON text made safe inside a <script> element: "</" becomes "<\/" (so that no text from the
// trace can close the element) and "<!--" becomes "\u003c!--" (which would otherwise change
// how the browser reads the rest of the script). Both forms mean the same to JSON.parse.
std::string script_safe_json(std::string_view json);

}  // namespace collwrap
