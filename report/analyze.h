// From a matched trace to the analysis result: the findings of the selected rules
// (findings.h) plus the per-rank, per-pattern and trace-wide numbers every report shows.
#pragma once

#include <functional>
#include <vector>

#include "analysis_result.h"
#include "compute_grains.h"
#include "findings.h"
#include "matching.h"
#include "root_causes.h"
#include "run_overview.h"

namespace collwrap {

// What the rules look for, plus the root-cause analysis (critical path, POP, what-if).
struct AnalysisSettings {
  RuleOptions rules;
  std::vector<const Pattern*> patterns;  // which rules to run, catalog order
  std::size_t top_instances = 3;         // worst instances kept per finding
  CauseOptions causes = {};
  // Cores the analysis may use (0: one per core): the rules beside the summaries, then the
  // root-cause analysis's replays. The result does not depend on it.
  unsigned threads = 0;
  // analyzer --noise FILE: the collection's record and its file, for the noise prediction
  // (compute_grains.h); null without.
  const noise::NoiseRecord* noise = nullptr;
  std::string noise_file = {};

  FindingSettings findings() const { return {rules, patterns, top_instances}; }
};

// The parts of a result besides the root causes, each made from the trace's locations; the
// processes that divide a trace (distributed/) make them from all their shares' parts.
struct ResultParts {
  Findings found;
  std::vector<LocationTimes> times;  // of every location
  MatchCounts counts;
  std::uint64_t collectives = 0;  // collective instances the matching formed
  std::vector<GrainDistribution> grains;
  std::vector<CommPair> communication;
  std::vector<OperationStats> operations;
  std::vector<GrainNoise> noise;  // of every location, with settings.noise
};

// The result of the parts: the trace's definitions, its reports' warnings and its time span
// are read from `trace`, not its events.
AnalysisResult assemble_result(const Trace& trace, ResultParts parts,
                               const AnalysisSettings& settings);

// `release_details`, when given, is called once only the root-cause analysis is left, with
// RootCauseStage::BeforePreparing, and once more when it is prepared, with AfterPreparing: the
// owner of `trace` and `matching` may then free what that analysis does not read
// (release_details_for_root_causes).
AnalysisResult analyze_trace(const Trace& trace, const Matching& matching,
                             const AnalysisSettings& settings,
                             const std::function<void(RootCauseStage)>& release_details = nullptr);

}  // namespace collwrap
