#include "compare_terminal.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "compare_text.h"
#include "text_format.h"

namespace collwrap {
namespace {

using Row = std::vector<std::string>;

// Columns padded to their widest cell, two spaces apart, each line indented by two.
void write_table(const Row& header, const std::vector<Row>& rows, std::ostream& out) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = display_width(header[c]);
  for (const Row& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  const auto line = [&](const Row& row) {
    std::string text = " ";
    for (std::size_t c = 0; c < row.size(); ++c)
      text += " " + (c + 1 == row.size() ? row[c] : padded(row[c], width[c]) + " ");
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  line(header);
  for (const Row& row : rows) line(row);
}

std::string ratio_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  return buffer;
}

Row change_cells(const Change& c) {
  return {signed_duration(c.delta()), format_duration(c.base), format_duration(c.current),
          percent_text(c)};
}

void write_totals(const RunComparison& c, std::ostream& out) {
  const auto row = [](const std::string& name, const Change& change) {
    Row r{name};
    for (std::string& cell : change_cells(change)) r.push_back(std::move(cell));
    return r;
  };
  write_table({"", "change", "base", "new", ""},
              {row("run time", c.run_time_s), row("MPI time, all ranks", c.mpi_time_s),
               row("waiting, all patterns", c.total_wait_s)},
              out);
}

template <class T>
std::vector<const T*> changed(const std::vector<T>& list, auto change_of, std::size_t top,
                              std::size_t& left_out) {
  std::vector<const T*> shown;
  left_out = 0;
  for (const T& item : list) {
    if (change_of(item).delta() == 0) continue;
    if (shown.size() < top)
      shown.push_back(&item);
    else
      ++left_out;
  }
  return shown;
}

void write_more(std::size_t left_out, std::ostream& out) {
  if (left_out > 0) out << "  … and " << left_out << " smaller changes (--top)\n";
}

void write_findings(const std::string& title, const std::vector<FindingChange>& changes,
                    std::size_t top, std::ostream& out) {
  std::size_t left_out = 0;
  const auto shown = changed(
      changes, [](const FindingChange& c) { return c.wait_s; }, top, left_out);
  out << '\n' << title << ", largest change first:\n";
  if (shown.empty()) {
    out << "  no change\n";
    return;
  }
  std::vector<Row> rows;
  for (const FindingChange* c : shown) {
    Row r = change_cells(c->wait_s);
    r.push_back(c->pattern);
    r.push_back(rank_text(c->rank));
    r.push_back(call_site_text(c->file, c->line, c->function, c->mpi_function));
    r.push_back(status_text(c->status, c->line, c->base_line));
    rows.push_back(std::move(r));
  }
  write_table({"change", "base", "new", "", "pattern", "ranks", "call site", ""}, rows, out);
  write_more(left_out, out);
}

void write_named(const std::string& title, const std::vector<NamedChange>& changes, std::size_t top,
                 std::ostream& out) {
  std::size_t left_out = 0;
  const auto shown = changed(
      changes, [](const NamedChange& c) { return c.value; }, top, left_out);
  if (shown.empty()) return;
  out << '\n' << title << ":\n";
  std::vector<Row> rows;
  for (const NamedChange* c : shown) {
    Row r = change_cells(c->value);
    r.insert(r.begin(), c->name);
    rows.push_back(std::move(r));
  }
  write_table({"", "change", "base", "new", ""}, rows, out);
  write_more(left_out, out);
}

void write_root_causes(const std::vector<RootCauseChange>& changes, std::size_t top,
                       std::ostream& out) {
  std::size_t left_out = 0;
  const auto shown = changed(
      changes, [](const RootCauseChange& c) { return c.cost_s; }, top, left_out);
  if (shown.empty()) return;
  out << "\nRoot causes (waiting they caused), largest change first:\n";
  std::vector<Row> rows;
  for (const RootCauseChange* c : shown) {
    Row r = change_cells(c->cost_s);
    r.push_back(rank_text(c->rank));
    r.push_back("segment ending at " +
                call_site_text(c->file, c->line, c->function, c->mpi_function));
    r.push_back(status_text(c->status, c->line, c->line));
    rows.push_back(std::move(r));
  }
  write_table({"change", "base", "new", "", "rank", "compute segment", ""}, rows, out);
  write_more(left_out, out);
}

void write_pop(const RunComparison& c, std::ostream& out) {
  if (c.pop.empty()) return;
  out << "\nPOP efficiencies (" << *c.base.pop_region << "):\n";
  std::vector<Row> rows;
  for (const NamedChange& p : c.pop) {
    const bool seconds = p.name.ends_with("_s");
    const auto value = [&](double v) { return seconds ? format_duration(v) : ratio_text(v); };
    rows.push_back(
        {p.name, value(p.value.base), value(p.value.current),
         seconds ? signed_duration(p.value.delta())
                 : (p.value.delta() >= 0 ? "+" : "−") + ratio_text(std::fabs(p.value.delta()))});
  }
  write_table({"", "base", "new", "change"}, rows, out);
}

void write_notes(const std::string& title, const std::vector<std::string>& notes,
                 std::ostream& out) {
  if (notes.empty()) return;
  out << '\n' << title << ":\n";
  for (const std::string& n : notes) out << "  - " << n << '\n';
}

void write_comparison(const RunComparison& c, std::size_t top, std::ostream& out) {
  out << "Base " << run_text(c.base) << "\nNew  " << run_text(c.current) << "\n\n";
  write_totals(c, out);
  write_findings("Call sites, summed over ranks", c.sites, top, out);
  if (!c.per_rank.empty()) write_findings("Call sites per rank", c.per_rank, top, out);
  write_named("Waiting per pattern", c.patterns, top, out);
  write_named("MPI time per operation, all ranks", c.operations, top, out);
  write_root_causes(c.root_causes, top, out);
  write_pop(c, out);
  write_notes("Not compared", c.not_compared, out);
}

void write_scaling(const ScalingStudy& s, std::ostream& out) {
  out << "POP scaling metrics (strong scaling, reference: the run with the fewest ranks):\n";
  std::vector<Row> rows;
  for (const ScalingRow& r : s.rows)
    rows.push_back({std::to_string(r.point.ranks), r.point.label,
                    format_duration(r.point.runtime_s), ratio_text(r.speedup),
                    ratio_text(r.ideal_speedup), ratio_text(r.global_efficiency),
                    ratio_text(r.point.parallel_efficiency), ratio_text(r.point.load_balance),
                    ratio_text(r.point.communication_efficiency),
                    ratio_text(r.computational_scaling), format_duration(r.point.total_useful_s)});
  if (rows.empty())
    out << "  no run has POP efficiencies\n";
  else
    write_table({"ranks", "run", "runtime", "speedup", "ideal", "global eff", "parallel eff",
                 "load bal", "comm eff", "comp scaling", "useful, all ranks"},
                rows, out);
  out << "  global efficiency = parallel efficiency × computational scaling; computational\n"
         "  scaling = total useful time of the reference / total useful time of the run\n";
  write_notes("Not compared", s.not_compared, out);
}

}  // namespace

void write_compare_terminal(const CompareReport& report, std::size_t top, std::ostream& out) {
  for (std::size_t i = 0; i < report.comparisons.size(); ++i) {
    if (i > 0) out << '\n';
    write_comparison(report.comparisons[i], top, out);
  }
  if (report.scaling) write_scaling(*report.scaling, out);
  if (!report.verdicts.empty()) out << '\n';
  for (const ThresholdVerdict& v : report.verdicts) out << verdict_text(v) << '\n';
}

}  // namespace collwrap
