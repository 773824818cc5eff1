// Two runs side by side: what `analyzer compare` reports for the base run and one new run.
// Findings are matched by finding_matching.h, per rank and summed over ranks; everything else
// (run time, MPI time, waiting per pattern, MPI time per operation, root causes, POP
// efficiencies) is matched by name. What the two runs do not share is left out and said in
// `not_compared`, so runs of different rank counts, programs or pattern selections still
// compare in what they have in common.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis_result.h"

namespace collwrap {

// One analyzed run and the argument that named it.
struct ComparedRun {
  std::string label;  // as given on the command line
  AnalysisResult result{};
};

// A quantity in both runs. Absent in a run (a vanished finding) counts as 0.
struct Change {
  double base = 0;
  double current = 0;
  double delta() const { return current - base; }
  // Relative change in percent; unset when the base is 0.
  std::optional<double> percent() const;
};

enum class FindingStatus { Matched, Gone, New };

// "matched", "gone" (only in the base run), "new" (only in the new run).
const char* finding_status_name(FindingStatus status);

// A finding of either run (rank kAllRanks when summed over ranks), at its call site in the new
// run (the base run's when gone).
struct FindingChange {
  FindingStatus status = FindingStatus::Matched;
  std::string pattern;
  std::int32_t rank = 0;
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t base_line = 0;  // differs from `line` when the call moved
  std::string function;
  std::string mpi_function;
  Change wait_s{};
  Change occurrences{};
};

struct NamedChange {
  std::string name;  // pattern id, MPI function, POP efficiency
  Change value{};
};

// A root cause (compute segment on one rank) of either run, matched like findings.
struct RootCauseChange {
  FindingStatus status = FindingStatus::Matched;
  std::int32_t rank = 0;
  std::string file;
  std::uint32_t line = 0;
  std::string function;
  std::string mpi_function;
  Change cost_s{};  // short- plus long-term cost: the waiting it caused
};

struct RunFacts {
  std::string label;
  std::string program;
  std::int32_t ranks = 0;
  std::optional<std::string> pop_region{};  // set when the run has POP efficiencies
};

struct RunComparison {
  RunFacts base, current;
  Change run_time_s{};    // first to last event
  Change mpi_time_s{};    // over all ranks and threads
  Change total_wait_s{};  // waiting of the patterns both runs looked for, none counted twice
  std::vector<FindingChange> sites{};          // summed over ranks, largest |change| first
  std::vector<FindingChange> per_rank{};       // empty when the rank counts differ
  std::vector<NamedChange> patterns{};         // patterns both runs looked for, catalog order
  std::vector<NamedChange> operations{};       // MPI time per function, largest |change| first
  std::vector<RootCauseChange> root_causes{};  // largest |change| first
  std::vector<NamedChange> pop{};              // POP efficiencies, when both runs have them
  std::vector<std::string> not_compared{};     // what could not be compared, and why
};

RunFacts run_facts(const ComparedRun& run);

RunComparison compare_runs(const ComparedRun& base, const ComparedRun& current);

// The waiting of a run, none counted twice: the pattern totals of the patterns in `patterns`
// that are not part of another pattern (a pattern's `parent` in the catalog).
double total_wait_s(const AnalysisResult& result, const std::vector<std::string>& patterns);

}  // namespace collwrap
