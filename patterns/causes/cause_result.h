// Root causes of waiting, the critical path and the POP efficiencies, as the reports show them
// (the "root_causes", "critical_path" and "pop" parts of the JSON report). Times are seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "critical_path.h"

namespace collwrap {

// Where the function containing the call below it was called from.
struct SourceFrame {
  std::string file;  // empty when unknown
  std::uint32_t line = 0;
  std::string function;  // the calling function, when known
};

// A compute segment type: between the call that starts it and the call that ends it. Its
// file:line is the ending call's site (the line after the code to change).
struct SegmentDescription {
  std::string file;  // empty when no call site was recorded
  std::uint32_t line = 0;
  std::string function;      // enclosing user function, when known
  std::string mpi_function;  // the MPI call that ends the segment
  std::string start_file;
  std::uint32_t start_line = 0;
  std::string start_mpi_function;  // "start" for the first segment of a location
  // The callers of the ending call site, nearest first: recorded with COLLWRAP_CALLSITE_DEPTH
  // > 1, they tell apart the segments that reach one MPI line through different code.
  std::vector<SourceFrame> call_path;
};

// The waits at one call site on one location that a root cause was charged for.
struct CausedWait {
  std::int32_t rank = 0;
  std::int32_t thread = 0;
  std::string file;  // empty when no call site was recorded
  std::uint32_t line = 0;
  std::string function;
  double short_term_cost_s = 0;  // of the cause's short-term cost
  double long_term_cost_s = 0;   // of its long-term cost: where the propagated waiting started
};

// The compute segments that end at one call site on one location and made others wait (their
// start is that of the first such segment); or, for an imbalance (gain_basis RanksMean), on
// every location that runs them, none of which dominates their cost.
enum class GainBasis : std::uint8_t { OthersMean, LargestWait, RanksMean };

// The report's name of each (JSON gain_basis, SQLite root_cause_estimates.gain_basis).
inline const char* gain_basis_name(GainBasis b) {
  switch (b) {
    case GainBasis::LargestWait:
      return "largest_wait";
    case GainBasis::RanksMean:
      return "ranks_mean";
    case GainBasis::OthersMean:
      break;
  }
  return "others_mean";
}
inline GainBasis gain_basis_of(std::string_view name) {
  if (name == "largest_wait") return GainBasis::LargestWait;
  if (name == "ranks_mean") return GainBasis::RanksMean;
  return GainBasis::OthersMean;
}

struct RootCause {
  SegmentDescription segment;
  std::int32_t rank = 0;
  std::int32_t thread = 0;
  std::uint64_t occurrences = 0;  // instances of the segment on this location
  double segment_time_s = 0;      // their total length
  double others_mean_time_s = 0;  // mean total length of the same segment on the other ranks
  double short_term_cost_s = 0;   // waits it caused directly
  double long_term_cost_s = 0;    // waits it caused through other ranks' waits
  // What the gain estimate cuts the segment to: the other ranks' mean time in it, or, when no
  // other rank runs it, its time minus, per instance, the largest wait it caused directly; for
  // an imbalance, every rank's instance to the mean of all ranks' same instance (rank, thread
  // and the times then describe the location that spends the most time in it).
  GainBasis gain_basis = GainBasis::OthersMean;
  double target_time_s = 0;
  // Replay with the segment cut to target_time_s: the run's end moves earlier by gain_s. Unset
  // beyond the estimated causes, or when there is nothing to cut to.
  std::optional<double> gain_s;
  std::optional<double> gain_percent;
  std::vector<CausedWait> caused_waits;  // largest cost first, at most 5
};

struct DelaySummary {
  std::uint64_t waits = 0;  // calls that waited for another location in the replay
  double total_wait_s = 0;
  double attributed_s = 0;  // short- plus long-term costs of all segments
  double residual_s = 0;    // total_wait_s − attributed_s
};

struct CriticalPathSegment {
  SegmentDescription segment;
  double time_s = 0;           // on the critical path
  double share = 0;            // of the critical path's length
  double mean_per_rank_s = 0;  // total of the segment over all locations / ranks
  double imbalance_s = 0;      // time_s − mean_per_rank_s
};

struct CriticalPathCallSite {
  std::string mpi_function;
  std::string file;
  std::uint32_t line = 0;
  double time_s = 0;
  double share = 0;
};

struct CriticalPathSummary {
  double length_s = 0;
  std::uint32_t hops = 0;                     // changes of location along the path
  double compute_s = 0;                       // segments on the path
  double mpi_s = 0;                           // MPI calls on the path
  std::vector<CriticalPathSegment> segments;  // largest time first
  std::vector<CriticalPathCallSite> call_sites;
};

struct PopRank {
  std::int32_t rank = 0;
  double useful_s = 0;  // outside MPI, inside the region of interest
  double mpi_s = 0;
};

// POP Centre of Excellence efficiencies of the region of interest.
struct PopEfficiencies {
  std::string region;  // "MPI_Pcontrol" or "MPI_Init..MPI_Finalize"
  double runtime_s = 0;
  double ideal_runtime_s = 0;  // replayed on an ideal network
  double mean_useful_s = 0;
  double max_useful_s = 0;
  double load_balance = 0;              // mean / max useful
  double communication_efficiency = 0;  // max useful / runtime
  double serialization_efficiency = 0;  // max useful / ideal runtime
  double transfer_efficiency = 0;       // ideal runtime / runtime
  double parallel_efficiency = 0;       // load balance × communication efficiency
  std::vector<PopRank> ranks;
};

// A what-if question asked on the command line, and its answer.
struct WhatIfResult {
  std::string spec;        // as given
  std::int32_t rank = -1;  // -1: every rank
  std::string file;
  std::uint32_t line = 0;
  double scale = 0;
  std::uint64_t segments_changed = 0;
  double runtime_s = 0;  // replayed end of the run
  double gain_s = 0;
  double gain_percent = 0;
};

struct CauseAnalysis {
  double replay_runtime_s = 0;            // end of the as-recorded replay (the reference of gains)
  std::uint64_t broken_dependencies = 0;  // cycles the replay had to break (damaged trace)
  std::vector<RootCause> root_causes;     // by gain, then by cost
  DelaySummary delay;
  CriticalPathSummary critical_path;
  // For the HTML timeline, when CauseOptions::critical_path_pieces asks; not in the JSON report.
  std::vector<CriticalPathPiece> critical_path_pieces;
  PopEfficiencies pop;
  std::vector<WhatIfResult> what_ifs;
};

}  // namespace collwrap
