#include "cause_summary.h"

#include <cstdio>

#include "text_format.h"

namespace collwrap {
namespace {

std::string fixed(double value, const char* format) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string segment_text(const SegmentDescription& s, const PathShown& path) {
  const std::string end = s.file.empty() ? s.mpi_function : format_place(path(s.file), s.line);
  std::string start =
      s.start_file.empty() ? s.start_mpi_function : format_place(path(s.start_file), s.start_line);
  return end + " (compute after " + start + ", before " + s.mpi_function + ")";
}

// "called from solver.c:7 (solve) <- main.c:3 (main)"; empty without recorded callers.
std::string call_path_text(const SegmentDescription& s, const PathShown& path) {
  std::string text;
  for (const SourceFrame& f : s.call_path) {
    text += text.empty() ? "called from " : " <- ";
    text += f.file.empty() ? std::string("?") : format_place(path(f.file), f.line);
    if (!f.function.empty()) text += " (" + f.function + ")";
  }
  return text;
}

const char* gain_basis_text(GainBasis b) {
  switch (b) {
    case GainBasis::LargestWait:
      return "cut by the waits it caused";
    case GainBasis::RanksMean:
      return "balanced: each instance at the mean of all ranks";
    case GainBasis::OthersMean:
      break;
  }
  return "cut to the other ranks' mean";
}

}  // namespace

void write_lines_to_change(const CauseAnalysis& c, std::size_t top, const PathShown& path,
                           std::ostream& out) {
  if (c.root_causes.empty()) {
    out << "Lines to change, by estimated gain: none (no compute segment made another rank "
           "wait).\n\n";
    return;
  }
  out << "Lines to change, by estimated gain (replayed run " << format_duration(c.replay_runtime_s)
      << "):\n";
  const std::size_t shown = std::min(top, c.root_causes.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const RootCause& r = c.root_causes[i];
    const bool across_ranks = r.gain_basis == GainBasis::RanksMean;
    out << "  " << i + 1 << ". " << segment_text(r.segment, path)
        << (across_ranks ? " imbalanced across ranks, most on rank " : " on rank ") << r.rank;
    if (r.thread != 0) out << " thread " << r.thread;
    if (const std::string callers = call_path_text(r.segment, path); !callers.empty())
      out << "\n     " << callers;
    out << "\n     ";
    if (r.gain_s)
      out << "saves " << format_duration(*r.gain_s) << " (" << fixed(*r.gain_percent, "%.1f %%")
          << " of the run) if " << gain_basis_text(r.gain_basis) << " ("
          << format_duration(r.target_time_s) << " instead of " << format_duration(r.segment_time_s)
          << (across_ranks ? " on rank " + std::to_string(r.rank) : std::string()) << ")";
    else
      out << "gain not estimated (" << format_duration(r.segment_time_s) << " in this segment)";
    out << "\n     causes " << format_duration(r.short_term_cost_s) << " of waiting directly, "
        << format_duration(r.long_term_cost_s) << " through other ranks\n";
  }
  if (c.root_causes.size() > shown)
    out << "  … " << c.root_causes.size() - shown << " more in the JSON report (--json)\n";
  for (const WhatIfResult& w : c.what_ifs)
    out << "  What if " << w.spec << ": " << w.segments_changed << " segments changed, run ends "
        << format_duration(w.runtime_s) << ", saves " << format_duration(w.gain_s) << " ("
        << fixed(w.gain_percent, "%.1f %%") << ")\n";
  out << "  (Estimates replay the trace with only that change; the rest of the program is "
         "assumed to run as recorded.)\n\n";
}

void write_efficiencies(const CauseAnalysis& c, std::size_t top, const PathShown& path,
                        std::ostream& out) {
  const DelaySummary& d = c.delay;
  out << "Delay costs: " << format_duration(d.total_wait_s) << " of waiting in " << d.waits
      << " calls; " << format_duration(d.attributed_s) << " attributed to compute segments, "
      << "residual " << format_duration(d.residual_s) << ".\n";

  const CriticalPathSummary& cp = c.critical_path;
  out << "Critical path: " << format_duration(cp.length_s) << " (" << format_duration(cp.compute_s)
      << " compute, " << format_duration(cp.mpi_s) << " MPI), " << cp.hops << " changes of rank.\n";
  for (std::size_t i = 0; i < cp.segments.size() && i < top / 2 + 1; ++i) {
    const CriticalPathSegment& s = cp.segments[i];
    const std::string line =
        "  " + fixed(100 * s.share, "%5.1f %%") + "  " + segment_text(s.segment, path) + ",";
    const std::string imbalance = "imbalance " + format_duration(s.imbalance_s);
    // The summary stays within 100 columns: a long segment name puts the imbalance below it.
    if (display_width(line) + 1 + imbalance.size() <= 100)
      out << line << ' ' << imbalance << '\n';
    else
      out << line << "\n           " << imbalance << '\n';
  }

  const PopEfficiencies& p = c.pop;
  out << "POP efficiencies (" << p.region << ", runtime " << format_duration(p.runtime_s)
      << ", ideal network " << format_duration(p.ideal_runtime_s) << "):\n"
      << "  parallel efficiency        " << fixed(p.parallel_efficiency, "%.3f") << '\n'
      << "    load balance             " << fixed(p.load_balance, "%.3f") << '\n'
      << "    communication efficiency " << fixed(p.communication_efficiency, "%.3f") << '\n'
      << "      serialization          " << fixed(p.serialization_efficiency, "%.3f") << '\n'
      << "      transfer               " << fixed(p.transfer_efficiency, "%.3f") << '\n';
  out << "  useful time per rank:";
  for (std::size_t i = 0; i < p.ranks.size() && i < 16; ++i)
    out << (i % 4 == 0 ? "\n   " : "") << " rank " << p.ranks[i].rank << " "
        << format_duration(p.ranks[i].useful_s) << ';';
  if (p.ranks.size() > 16) out << " … " << p.ranks.size() - 16 << " more";
  out << "\n\n";
}

}  // namespace collwrap
