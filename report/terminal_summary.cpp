#include "terminal_summary.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog.h"
#include "cause_summary.h"
#include "text_format.h"

namespace collwrap {
namespace {

constexpr std::size_t kRanksListed = 16;  // more ranks are summarized as min/mean/max
constexpr std::size_t kTextWidth = 100;   // recommendations wrap here
constexpr std::size_t kNoteWidth = 90;    // notes under a table wrap here

// Word-wraps `text` to `width` columns, every line starting with `indent`.
std::string wrapped(const std::string& text, const std::string& indent,
                    std::size_t width = kTextWidth) {
  std::string out, line = indent;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line.size() > indent.size() && display_width(line) + 1 + display_width(word) > width) {
      out += line + '\n';
      line = indent;
    }
    if (line.size() > indent.size()) line += ' ';
    line += word;
    start = end + 1;
  }
  return out + line + '\n';
}

std::string plural(std::uint64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string percent(double part, double whole) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f %%", whole > 0 ? 100 * part / whole : 0.0);
  return buffer;
}

std::string shown_path(const std::string& file, const std::filesystem::path& base) {
  if (file.empty() || base.empty()) return file;
  const std::filesystem::path relative = std::filesystem::path(file).lexically_relative(base);
  const std::string text = relative.string();
  return relative.empty() || text.starts_with("..") ? file : text;
}

std::string location_label(const Finding& f) {
  std::string label = "rank " + std::to_string(f.rank);
  if (f.thread != 0) label += " thread " + std::to_string(f.thread);
  return label;
}

// The pattern column: the longest pattern id and two spaces, at least 20 columns.
std::size_t pattern_column() {
  std::size_t width = 20;
  for (const Pattern* p : pattern_catalog()) width = std::max(width, p->id.size() + 2);
  return width;
}

void write_header(const AnalysisResult& r, std::ostream& out) {
  const TraceInfo& t = r.trace;
  out << "collwrap analyzer " << r.tool_version << ": " << t.path << '\n';
  out << "  " << (t.program.empty() ? std::string("program unknown") : "program " + t.program)
      << ", " << t.world_size << " ranks, " << t.locations << " locations on " << t.nodes.size()
      << (t.nodes.size() == 1 ? " node" : " nodes") << ", " << format_duration(t.duration_s) << ", "
      << t.events << " events\n\n";
}

void write_findings(const AnalysisResult& r, const TerminalOptions& options, std::ostream& out) {
  if (r.findings.empty()) {
    out << "No wait state of at least " << format_duration(r.summary.options.min_wait_s)
        << " (--min-wait) found.\n\n";
    return;
  }
  const std::size_t shown = std::min(options.top, r.findings.size());
  out << "Worst findings (" << shown << " of " << r.findings.size() << ", by idle time):\n";
  std::vector<std::string> advised;  // each recommendation is printed once, at its first finding
  for (std::size_t i = 0; i < shown; ++i) {
    const Finding& f = r.findings[i];
    out << padded(std::to_string(i + 1) + ".", 4) << padded(f.pattern, pattern_column())
        << padded(format_duration(f.wait_time_s), 10) << padded(location_label(f), 9) << ' '
        << format_place(shown_path(f.file, options.base_dir), f.line) << "  " << f.mpi_function
        << " ×" << f.occurrences;
    if (!f.peers.empty()) out << ", peers: " << format_peers(f.peers, f.peer_threads);
    out << '\n';
    const auto same = std::find(advised.begin(), advised.end(), f.recommendation);
    if (same == advised.end()) {
      out << wrapped(f.recommendation, "    ");
      advised.push_back(f.recommendation);
    }
  }
  if (shown < r.findings.size())
    out << "    … " << r.findings.size() - shown << " more in the JSON report (--json)\n";
  out << '\n';
}

void write_pattern_totals(const AnalysisResult& r, std::ostream& out) {
  const Summary& s = r.summary;
  out << "Idle time by pattern (% of " << format_duration(s.total_time_s)
      << ", the total time of all locations):\n";
  for (const PatternTotal& p : s.patterns) {
    if (p.findings == 0) continue;
    out << "  " << padded(p.pattern, pattern_column()) << padded(format_duration(p.wait_time_s), 10)
        << padded(percent(p.wait_time_s, s.total_time_s), 9) << plural(p.occurrences, "instance")
        << " in " << plural(p.findings, "finding") << '\n';
  }
  if (s.findings == 0)
    out << "  (none)\n";
  else
    out << wrapped("Patterns overlap: " + pattern_overlap_note() + ".", "  ", kNoteWidth);
  if (s.instances_below_min_wait > 0)
    out << "  " << plural(s.instances_below_min_wait, "instance") << " below --min-wait "
        << format_duration(s.options.min_wait_s) << " not counted\n";
  out << '\n';
}

void write_rank_times(const AnalysisResult& r, std::ostream& out) {
  if (r.ranks.empty()) return;
  out << "MPI time per rank:";
  if (r.ranks.size() <= kRanksListed) {
    for (const RankSummary& rank : r.ranks)
      out << "\n  rank " << padded(std::to_string(rank.rank), 5)
          << padded(format_duration(rank.mpi_time_s), 10) << percent(rank.mpi_time_s, rank.time_s)
          << " of " << format_duration(rank.time_s);
  } else {
    const auto [lo, hi] = std::minmax_element(
        r.ranks.begin(), r.ranks.end(),
        [](const RankSummary& a, const RankSummary& b) { return a.mpi_time_s < b.mpi_time_s; });
    out << " min " << format_duration(lo->mpi_time_s) << " (rank " << lo->rank << "), max "
        << format_duration(hi->mpi_time_s) << " (rank " << hi->rank << "), mean "
        << format_duration(r.summary.total_mpi_time_s / static_cast<double>(r.ranks.size()));
  }
  out << "\n\n";
}

std::string size_range(const OperationStats& o) {
  if (o.bytes_max == 0) return "no data";
  return std::to_string(o.bytes_min) + "-" + std::to_string(o.bytes_max) + " B";
}

// The operations that take the most MPI time, as many as findings are listed.
void write_operation_times(const AnalysisResult& r, const TerminalOptions& options,
                           std::ostream& out) {
  if (r.operations.empty() || options.top == 0) return;
  out << "MPI time per operation and message size (top " << options.top << "):\n";
  out << "  " << padded("function", 22) << padded("bytes", 18) << padded("calls", 9)
      << padded("total", 10) << padded("mean", 10) << padded("min", 10) << padded("max", 10)
      << "% of MPI\n";
  const std::size_t shown = std::min(options.top, r.operations.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const OperationStats& o = r.operations[i];
    out << "  " << padded(o.function, 22) << padded(size_range(o), 18)
        << padded(std::to_string(o.count), 9) << padded(format_duration(o.total_s), 10)
        << padded(format_duration(o.mean_s), 10) << padded(format_duration(o.min_s), 10)
        << padded(format_duration(o.max_s), 10) << percent(o.percent_of_mpi_time, 100) << '\n';
  }
  out << '\n';
}

// With analyzer --noise: what the machine's measured noise explains of the waiting.
void write_machine_noise(const AnalysisResult& r, std::ostream& out) {
  if (!r.noise) return;
  const NoisePrediction& n = *r.noise;
  char metrics[96];
  std::snprintf(metrics, sizeof metrics, "coverage C = %.4f, synchronicity S = %.2f",
                n.noise_coverage, n.noise_synchronicity);
  out << "Machine noise (" << n.file << ": " << n.noise_ranks << " ranks, " << metrics << "):\n"
      << "  " << plural(n.grains, "compute grain") << ", " << format_duration(n.compute_s)
      << " of compute; the noise would lengthen them by about " << format_duration(n.delay_s)
      << ".\n  Measured noise explains about " << format_duration(n.wait_s);
  if (n.explained_fraction)
    out << " (" << percent(n.wait_s, n.observed_wait_s) << ") of the "
        << format_duration(n.observed_wait_s) << " of waiting.\n";
  else
    out << " of waiting; the patterns found none.\n";
  out << "  (Assumes every grain ends in a synchronization of all " << n.processes
      << " ranks, in the collection's noise.)\n\n";
}

void write_data_quality(const AnalysisResult& r, std::ostream& out) {
  const MatchSummary& m = r.summary.matching;
  const std::uint64_t unmatched = m.unmatched_sends + m.unmatched_receives +
                                  m.incomplete_collectives + m.unmatched_requests +
                                  m.mismatched_collectives + m.invalid_ops;
  out << "Matching: " << plural(m.messages, "message") << ", "
      << plural(m.collectives, "collective instance") << "; "
      << (unmatched == 0 ? std::string("nothing unmatched")
                         : std::to_string(unmatched) + " unmatched (see warnings)")
      << ".\n";
  const ClockSummary& c = r.summary.clock;
  out << "Clock: " << c.violations << " clock-condition violation"
      << (c.violations == 1 ? "" : "s");
  if (c.max_offset_stddev_s >= 1e-9)
    out << ", offset uncertainty up to " << format_duration(c.max_offset_stddev_s);
  if (c.violations_before_repair > 0)
    out << "; " << c.violations_before_repair << " before repair, " << c.violations_after_repair
        << " after, shifts up to " << format_duration(c.max_repair_shift_s);
  out << "; " << c.offsets_per_location_min << " clock offset(s) per location.\n";
  const auto& warnings = r.summary.warnings;
  if (warnings.empty()) return;
  out << "Warnings (" << warnings.size() << "):\n";
  for (const std::string& w : warnings) out << "  - " << w << '\n';
}

}  // namespace

void write_terminal_summary(const AnalysisResult& result, const TerminalOptions& options,
                            std::ostream& out) {
  const PathShown path = [&](const std::string& f) { return shown_path(f, options.base_dir); };
  write_header(result, out);
  if (result.causes) write_lines_to_change(*result.causes, options.top, path, out);
  write_findings(result, options, out);
  write_pattern_totals(result, out);
  write_rank_times(result, out);
  write_operation_times(result, options, out);
  if (result.causes) write_efficiencies(*result.causes, options.top, path, out);
  write_machine_noise(result, out);
  write_data_quality(result, out);
}

}  // namespace collwrap
