// From a matched trace to the analysis result: runs the selected rules, aggregates their
// instances into findings and adds the per-rank, per-pattern and trace-wide numbers.
#pragma once

#include <vector>

#include "analysis_result.h"
#include "matching.h"
#include "pattern.h"
#include "root_causes.h"

namespace collwrap {

struct AnalysisSettings {
  RuleOptions rules;
  std::vector<const Pattern*> patterns;  // which rules to run, catalog order
  std::size_t top_instances = 3;         // worst instances kept per finding
  CauseOptions causes = {};              // root causes, critical path, POP, what-if
};

AnalysisResult analyze_trace(const Trace& trace, const Matching& matching,
                             const AnalysisSettings& settings);

}  // namespace collwrap
