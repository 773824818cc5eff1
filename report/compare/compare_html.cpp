#include "compare_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "compare_html_style.h"
#include "compare_text.h"
#include "html_template.h"
#include "markup_escape.h"
#include "text_format.h"

namespace collwrap {
namespace {

std::string esc(const std::string& s) {
  return escape_markup(s);
}

std::string fixed(double value, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// Less waiting or time is better.
const char* direction_class(const Change& c) {
  return c.delta() < 0 ? "better" : c.delta() > 0 ? "worse" : "";
}

std::string bars(const Change& c, double scale) {
  const auto width = [&](double v) { return fixed(scale > 0 ? 100 * v / scale : 0, 1); };
  return "<div class=\"bar base\" style=\"width:" + width(c.base) + "%\" title=\"base " +
         format_duration(c.base) +
         "\"></div><div class=\"bar new\" style=\"width:" + width(c.current) + "%\" title=\"new " +
         format_duration(c.current) + "\"></div>";
}

std::string change_cells(const Change& c, double scale) {
  return "<td class=\"num " + std::string(direction_class(c)) + "\">" +
         esc(signed_duration(c.delta()) + " " + percent_text(c)) + "</td><td class=\"num\">" +
         esc(format_duration(c.base)) + "</td><td class=\"num\">" +
         esc(format_duration(c.current)) + "</td><td class=\"bars\">" + bars(c, scale) + "</td>";
}

template <class T>
double scale_of(const std::vector<T>& rows, auto change_of) {
  double scale = 0;
  for (const T& r : rows) scale = std::max({scale, change_of(r).base, change_of(r).current});
  return scale;
}

void write_legend(std::ostream& out) {
  out << "<p class=\"legend note\">Bars:<span class=\"bar base\"></span>base"
         "<span class=\"bar new\"></span>new</p>\n";
}

void write_totals(const RunComparison& c, std::ostream& out) {
  const double scale =
      std::max({c.run_time_s.base, c.run_time_s.current, c.mpi_time_s.base, c.mpi_time_s.current,
                c.total_wait_s.base, c.total_wait_s.current});
  out << "<table><tr><th></th><th>change</th><th>base</th><th>new</th><th></th></tr>\n";
  for (const auto& [name, change] :
       {std::pair{"run time", c.run_time_s}, std::pair{"MPI time, all ranks", c.mpi_time_s},
        std::pair{"waiting, all patterns", c.total_wait_s}})
    out << "<tr><td>" << name << "</td>" << change_cells(change, scale) << "</tr>\n";
  out << "</table>\n";
}

void write_findings(const std::string& title, const std::vector<FindingChange>& changes,
                    std::ostream& out) {
  out << "<h3>" << esc(title) << "</h3>\n";
  const auto wait = [](const FindingChange& c) { return c.wait_s; };
  const double scale = scale_of(changes, wait);
  out << "<table><tr><th>change</th><th>base</th><th>new</th><th></th><th>pattern</th>"
         "<th>ranks</th><th>call site</th><th></th></tr>\n";
  for (const FindingChange& c : changes)
    out << "<tr>" << change_cells(c.wait_s, scale) << "<td>" << esc(c.pattern) << "</td><td>"
        << esc(rank_text(c.rank)) << "</td><td title=\"" << esc(c.file) << "\">"
        << esc(call_site_text(c.file, c.line, c.function, c.mpi_function)) << "</td><td>"
        << esc(status_text(c.status, c.line, c.base_line)) << "</td></tr>\n";
  out << "</table>\n";
}

void write_named(const std::string& title, const std::vector<NamedChange>& changes,
                 std::ostream& out) {
  if (changes.empty()) return;
  out << "<h3>" << esc(title) << "</h3>\n";
  const double scale = scale_of(changes, [](const NamedChange& c) { return c.value; });
  out << "<table><tr><th></th><th>change</th><th>base</th><th>new</th><th></th></tr>\n";
  for (const NamedChange& c : changes)
    if (c.value.base != 0 || c.value.current != 0)  // a pattern neither run found says nothing
      out << "<tr><td>" << esc(c.name) << "</td>" << change_cells(c.value, scale) << "</tr>\n";
  out << "</table>\n";
}

void write_root_causes(const std::vector<RootCauseChange>& changes, std::ostream& out) {
  if (changes.empty()) return;
  out << "<h3>Root causes (waiting they caused)</h3>\n";
  const double scale = scale_of(changes, [](const RootCauseChange& c) { return c.cost_s; });
  out << "<table><tr><th>change</th><th>base</th><th>new</th><th></th><th>rank</th>"
         "<th>compute segment ending at</th><th></th></tr>\n";
  for (const RootCauseChange& c : changes)
    out << "<tr>" << change_cells(c.cost_s, scale) << "<td>" << c.rank << "</td><td>"
        << esc(call_site_text(c.file, c.line, c.function, c.mpi_function)) << "</td><td>"
        << esc(status_text(c.status, c.line, c.line)) << "</td></tr>\n";
  out << "</table>\n";
}

void write_pop(const RunComparison& c, std::ostream& out) {
  if (c.pop.empty()) return;
  out << "<h3>POP efficiencies (" << esc(*c.base.pop_region) << ")</h3>\n"
      << "<table><tr><th></th><th>base</th><th>new</th><th>change</th><th></th></tr>\n";
  for (const NamedChange& p : c.pop) {
    const bool seconds = p.name.ends_with("_s");
    const auto value = [&](double v) { return seconds ? format_duration(v) : fixed(v, 3); };
    // Higher efficiencies are better, shorter times are.
    const double sign = seconds ? 1 : -1;
    const char* cls = sign * p.value.delta() < 0   ? "better"
                      : sign * p.value.delta() > 0 ? "worse"
                                                   : "";
    const double scale = seconds ? std::max(p.value.base, p.value.current) : 1;
    out << "<tr><td>" << esc(p.name) << "</td><td class=\"num\">" << esc(value(p.value.base))
        << "</td><td class=\"num\">" << esc(value(p.value.current)) << "</td><td class=\"num "
        << cls << "\">"
        << esc(seconds ? signed_duration(p.value.delta())
                       : (p.value.delta() >= 0 ? "+" : "−") + fixed(std::fabs(p.value.delta()), 3))
        << "</td><td class=\"bars\">" << bars(p.value, scale) << "</td></tr>\n";
  }
  out << "</table>\n";
}

void write_notes(const std::vector<std::string>& notes, std::ostream& out) {
  if (notes.empty()) return;
  out << "<h3>Not compared</h3>\n<ul class=\"notes\">\n";
  for (const std::string& n : notes) out << "<li>" << esc(n) << "</li>\n";
  out << "</ul>\n";
}

void write_comparison(const RunComparison& c, std::ostream& out) {
  out << "<h2>" << esc(c.current.label) << " against " << esc(c.base.label) << "</h2>\n"
      << "<p class=\"subtitle\">Base " << esc(run_text(c.base)) << "<br>New "
      << esc(run_text(c.current)) << "</p>\n";
  write_legend(out);
  write_totals(c, out);
  write_findings("Call sites, summed over ranks", c.sites, out);
  if (!c.per_rank.empty()) write_findings("Call sites per rank", c.per_rank, out);
  write_named("Waiting per pattern", c.patterns, out);
  write_named("MPI time per operation, all ranks", c.operations, out);
  write_root_causes(c.root_causes, out);
  write_pop(c, out);
  write_notes(c.not_compared, out);
}

// Speedup (measured and ideal) and the global and parallel efficiencies over rank counts, on a
// log2 axis of ranks; speedup on the left scale, efficiencies (0..1) on the right.
void write_scaling_plot(const std::vector<ScalingRow>& rows, std::ostream& out) {
  if (rows.size() < 2) return;
  constexpr double kWidth = 560, kHeight = 300, kLeft = 50, kRight = 50, kTop = 20, kBottom = 40;
  const double first = std::log2(rows.front().point.ranks);
  const double last = std::log2(rows.back().point.ranks);
  double top_speedup = 1;
  for (const ScalingRow& r : rows)
    top_speedup = std::max({top_speedup, r.speedup, r.ideal_speedup});
  const auto x = [&](const ScalingRow& r) {
    const double span = last > first ? last - first : 1;
    return kLeft + (std::log2(r.point.ranks) - first) / span * (kWidth - kLeft - kRight);
  };
  const auto y = [&](double value, double top) {
    return kHeight - kBottom - std::clamp(value / top, 0.0, 1.0) * (kHeight - kTop - kBottom);
  };
  const auto line = [&](const char* cls, auto value, double top) {
    std::string points;
    for (const ScalingRow& r : rows)
      points += fixed(x(r), 1) + "," + fixed(y(value(r), top), 1) + " ";
    out << "<polyline class=\"" << cls << "\" points=\"" << points << "\"/>\n";
  };
  out << "<svg role=\"img\" aria-label=\"scaling plot\" width=\"" << kWidth << "\" height=\""
      << kHeight << "\" viewBox=\"0 0 " << kWidth << ' ' << kHeight << "\">\n"
      << "<line class=\"axis\" x1=\"" << kLeft << "\" y1=\"" << kHeight - kBottom << "\" x2=\""
      << kWidth - kRight << "\" y2=\"" << kHeight - kBottom << "\"/>\n"
      << "<line class=\"axis\" x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft
      << "\" y2=\"" << kHeight - kBottom << "\"/>\n"
      << "<line class=\"axis\" x1=\"" << kWidth - kRight << "\" y1=\"" << kTop << "\" x2=\""
      << kWidth - kRight << "\" y2=\"" << kHeight - kBottom << "\"/>\n"
      << "<text x=\"4\" y=\"" << kTop - 6 << "\">speedup (max " << fixed(top_speedup, 2)
      << ")</text>\n<text x=\"" << kWidth - kRight - 40 << "\" y=\"" << kTop - 6
      << "\">efficiency 0–1</text>\n";
  for (const ScalingRow& r : rows)
    out << "<text x=\"" << fixed(x(r) - 6, 1) << "\" y=\"" << kHeight - kBottom + 16 << "\">"
        << r.point.ranks << "</text>\n";
  out << "<text x=\"" << kWidth / 2 - 20 << "\" y=\"" << kHeight - 6 << "\">ranks</text>\n";
  line(
      "ideal", [](const ScalingRow& r) { return r.ideal_speedup; }, top_speedup);
  line(
      "measured", [](const ScalingRow& r) { return r.speedup; }, top_speedup);
  line(
      "efficiency", [](const ScalingRow& r) { return r.global_efficiency; }, 1.0);
  out << "</svg>\n<p class=\"note\">Blue: measured speedup; dashed: ideal speedup (left scale). "
         "Green: global efficiency (right scale).</p>\n";
}

void write_scaling(const ScalingStudy& s, std::ostream& out) {
  out << "<h2>POP scaling metrics</h2>\n<p class=\"note\">Strong scaling; the reference is the "
         "run with the fewest ranks. Global efficiency = parallel efficiency × computational "
         "scaling; computational scaling = total useful time of the reference / total useful "
         "time of the run.</p>\n"
      << "<table><tr><th>ranks</th><th>run</th><th>runtime</th><th>speedup</th><th>ideal</th>"
         "<th>global efficiency</th><th>parallel efficiency</th><th>load balance</th>"
         "<th>communication efficiency</th><th>computational scaling</th>"
         "<th>useful time, all ranks</th></tr>\n";
  for (const ScalingRow& r : s.rows)
    out << "<tr><td class=\"num\">" << r.point.ranks << "</td><td>" << esc(r.point.label)
        << "</td><td class=\"num\">" << esc(format_duration(r.point.runtime_s))
        << "</td><td class=\"num\">" << fixed(r.speedup, 3) << "</td><td class=\"num\">"
        << fixed(r.ideal_speedup, 3) << "</td><td class=\"num\">" << fixed(r.global_efficiency, 3)
        << "</td><td class=\"num\">" << fixed(r.point.parallel_efficiency, 3)
        << "</td><td class=\"num\">" << fixed(r.point.load_balance, 3) << "</td><td class=\"num\">"
        << fixed(r.point.communication_efficiency, 3) << "</td><td class=\"num\">"
        << fixed(r.computational_scaling, 3) << "</td><td class=\"num\">"
        << esc(format_duration(r.point.total_useful_s)) << "</td></tr>\n";
  out << "</table>\n";
  write_scaling_plot(s.rows, out);
  write_notes(s.not_compared, out);
}

}  // namespace

void write_compare_html(const CompareReport& report, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>collwrap: comparison of runs</title>\n<style>\n"
      << kHtmlStyle << kCompareHtmlStyle
      << "</style>\n</head>\n<body>\n<h1>Comparison of runs</h1>\n"
      << "<p class=\"subtitle\">";
  for (std::size_t i = 0; i < report.runs.size(); ++i)
    out << (report.scaling ? (i == 0 ? "Runs: " : "<br>")
            : i == 0       ? "Base: "
                           : "<br>New: ")
        << esc(run_text(report.runs[i]));
  out << "</p>\n";
  for (const RunComparison& c : report.comparisons) write_comparison(c, out);
  if (report.scaling) write_scaling(*report.scaling, out);
  if (!report.verdicts.empty()) {
    out << "<h2>Thresholds</h2>\n<ul>\n";
    for (const ThresholdVerdict& v : report.verdicts)
      out << "<li class=\"verdict" << (v.crossed ? " crossed" : "") << "\">" << esc(verdict_text(v))
          << "</li>\n";
    out << "</ul>\n";
  }
  out << "</body>\n</html>\n";
}

}  // namespace collwrap
