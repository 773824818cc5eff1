// From rules to findings: runs the selected rules on a matched trace and groups their
// instances into findings (finding_aggregator.h), each with its comment and recommendation
// (finding_text.h), worst first.
#pragma once

#include <cstdint>
#include <vector>

#include "finding.h"
#include "matching.h"
#include "pattern.h"

namespace collwrap {

struct FindingSettings {
  RuleOptions rules;
  std::vector<const Pattern*> patterns;  // which rules to run, catalog order
  std::size_t top_instances = 3;         // worst instances kept per finding
  // The locations whose instances count: an analyzer process of a job finds at the locations
  // it holds (distributed/), the others' instances are theirs.
  LocationRange at = {};
  // The whole trace's traffic totals, which such a process cannot make alone (traffic_totals.h).
  const TrafficTotals* totals = nullptr;
};

struct Findings {
  std::vector<Finding> findings;               // worst first, ties in a fixed order
  std::uint64_t instances_below_min_wait = 0;  // dropped by --min-wait
};

// `threads`: how many rules run at once (0: one per core). Each rule has its own aggregator
// and the findings are joined in catalog order, so the result does not depend on it.
Findings find_findings(const Trace& trace, const Matching& matching,
                       const FindingSettings& settings, unsigned threads = 0);

// The findings of several parts of one trace (processes that each found at their own
// locations), as find_findings gives them for the whole: a finding belongs to one location, so
// the parts' findings are disjoint and only their order is to be made.
Findings merge_findings(std::vector<Findings> parts);

}  // namespace collwrap
