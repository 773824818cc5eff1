// Everything `analyzer compare` found, as its writers (terminal, --json, --html) read it.
#pragma once

#include <optional>
#include <vector>

#include "run_comparison.h"
#include "scaling.h"
#include "thresholds.h"

namespace collwrap {

// Version of the --json layout of `analyzer compare` (share/schema/compare.schema.json).
inline constexpr const char* kCompareSchemaVersion = "1.0";

struct CompareReport {
  std::vector<RunFacts> runs{};              // as given, the base first
  std::vector<RunComparison> comparisons{};  // each later run against the base
  std::optional<ScalingStudy> scaling{};     // with --scaling
  std::vector<ThresholdVerdict> verdicts{};  // each --fail-if-worse for each comparison

  bool worse() const;  // some threshold crossed: exit kExitWorse
};

struct CompareOptions {
  bool scaling = false;
  std::vector<WorseThreshold> thresholds{};
};

// Compares runs[1..] with runs[0], and with `options.scaling` all runs as a scaling study (no
// pairwise comparison then: the runs are expected to differ in rank count).
CompareReport compare_report(std::span<const ComparedRun> runs, const CompareOptions& options);

}  // namespace collwrap
