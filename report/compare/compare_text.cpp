#include "compare_text.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "finding_matching.h"
#include "text_format.h"

namespace collwrap {

std::string signed_duration(double seconds) {
  if (seconds == 0) return "0 s";
  const std::string magnitude = format_duration(std::fabs(seconds));
  return (seconds > 0 ? "+" : "−") + magnitude;
}

std::string percent_text(const Change& change) {
  if (change.delta() == 0) return "";
  const std::optional<double> p = change.percent();
  if (!p) return "(new)";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f %%", std::fabs(*p));
  return std::string("(") + (*p >= 0 ? "+" : "−") + buffer + ")";
}

std::string status_text(FindingStatus status, std::uint32_t line, std::uint32_t base_line) {
  if (status != FindingStatus::Matched) return finding_status_name(status);
  return line == base_line ? "" : "moved from line " + std::to_string(base_line);
}

std::string call_site_text(const std::string& file, std::uint32_t line, const std::string& function,
                           const std::string& mpi_function) {
  std::string text = format_place(std::filesystem::path(file).filename().string(), line);
  if (!function.empty()) text += " in " + function;
  if (!mpi_function.empty()) text += ", " + mpi_function;
  return text;
}

std::string rank_text(std::int32_t rank) {
  return rank == kAllRanks ? "all ranks" : "rank " + std::to_string(rank);
}

std::string run_text(const RunFacts& run) {
  return run.label + " (" + (run.program.empty() ? "program unknown" : run.program) + ", " +
         std::to_string(run.ranks) + (run.ranks == 1 ? " rank)" : " ranks)");
}

std::string verdict_text(const ThresholdVerdict& v) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%g", v.threshold.percent);
  std::string text = "--fail-if-worse " + v.threshold.subject + ":" + percent + " (" +
                     v.current_label + " against " + v.base_label + "): ";
  if (!v.comparable) return text + "not compared, a run did not look for " + v.threshold.subject;
  const std::string change = percent_text(v.wait_s);
  text += (v.threshold.subject == kTotalWaiting ? "waiting " : v.threshold.subject + " ") +
          format_duration(v.wait_s.base) + " → " + format_duration(v.wait_s.current) +
          (change.empty() ? "" : " " + change) + ": ";
  return text + (v.crossed ? "WORSE beyond the threshold" : "within the threshold");
}

}  // namespace collwrap
