// Wording shared by the terminal and HTML output of `analyzer compare`.
#pragma once

#include <string>

#include "run_comparison.h"
#include "thresholds.h"

namespace collwrap {

// "+1.23 s", "−45.6 ms" (a real minus sign), "0 s".
std::string signed_duration(double seconds);

// "(+12.3 %)", "(−100 %)", "(new)" when the base is 0, empty when nothing changed.
std::string percent_text(const Change& change);

// "gone", "new", "moved from line 40", or empty.
std::string status_text(FindingStatus status, std::uint32_t line, std::uint32_t base_line);

// "late_sender.c:32 in main, MPI_Recv": the file name without its directory.
std::string call_site_text(const std::string& file, std::uint32_t line, const std::string& function,
                           const std::string& mpi_function);

// "rank 3", or "all ranks" for kAllRanks.
std::string rank_text(std::int32_t rank);

// "run-a (late_sender, 4 ranks)".
std::string run_text(const RunFacts& run);

// One sentence: "--fail-if-worse total:5: waiting 1.00 s → 1.20 s (+20.0 %): worse".
std::string verdict_text(const ThresholdVerdict& verdict);

}  // namespace collwrap
