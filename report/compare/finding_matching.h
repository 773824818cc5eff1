// Which finding of one run is which finding of another. Two findings are the same when they
// have the same pattern, rank, thread and call site (file, line, enclosing function, MPI
// function). An edit above the call moves its line; so a finding left over after exact matching
// still matches one whose line is at most kLineShiftTolerance lines away, provided the file,
// the enclosing function and the MPI function agree (the nearest line wins). What stays
// unmatched has vanished (only in the base run) or is new (only in the new run).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "finding.h"

namespace collwrap {

inline constexpr std::uint32_t kLineShiftTolerance = 5;

// Rank of the findings of findings_summed_over_ranks().
inline constexpr std::int32_t kAllRanks = -1;

struct FindingMatch {
  const Finding* base = nullptr;     // null: new in the new run
  const Finding* current = nullptr;  // null: gone from the new run
  // current line − base line when both are there (non-zero only for a tolerated shift).
  std::int64_t line_shift = 0;
};

// Every finding of both lists, once: matched pairs in the order of `base`, then the findings of
// `current` that match none, in their order.
std::vector<FindingMatch> match_findings(std::span<const Finding> base,
                                         std::span<const Finding> current);

// One finding per pattern and call site with the occurrences and waiting of all ranks and
// threads added up (max_wait_s the largest, peers merged); rank and thread are kAllRanks.
std::vector<Finding> findings_summed_over_ranks(std::span<const Finding> findings);

}  // namespace collwrap
