// What each analyzer process of a job found at its own locations, as bytes for process 0,
// which merges the processes' findings (merge_findings) and adds up their counts.
#pragma once

#include <span>
#include <vector>

#include "findings.h"
#include "matching.h"

namespace collwrap {

struct FoundAtHeld {
  Findings findings;
  MatchCounts counts;
};

std::vector<char> finding_bytes(const FoundAtHeld& found);

// Throws std::runtime_error when the bytes end early.
FoundAtHeld read_finding_bytes(std::span<const char> bytes);

}  // namespace collwrap
