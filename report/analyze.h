// From a matched trace to the analysis result: the findings of the selected rules
// (findings.h) plus the per-rank, per-pattern and trace-wide numbers every report shows.
#pragma once

#include <vector>

#include "analysis_result.h"
#include "findings.h"
#include "matching.h"
#include "root_causes.h"

namespace collwrap {

// What the rules look for, plus the root-cause analysis (critical path, POP, what-if).
struct AnalysisSettings : FindingSettings {
  CauseOptions causes = {};
};

AnalysisResult analyze_trace(const Trace& trace, const Matching& matching,
                             const AnalysisSettings& settings);

}  // namespace collwrap
