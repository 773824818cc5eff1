// `analyzer compare --html FILE`: one self-contained page (no script, nothing fetched; the
// style of the analyzer's HTML report plus compare_html.css, compiled in) with the tables of
// the terminal output, each change drawn as two bars side by side (base above, new below, on
// one scale per table), and in scaling mode an SVG plot of speedup against ideal speedup and
// of the global efficiency over rank counts.
#pragma once

#include <ostream>

#include "compare_report.h"

namespace collwrap {

void write_compare_html(const CompareReport& report, std::ostream& out);

}  // namespace collwrap
