// The analysis result: what every report format shows, in memory and free of formatting.
//
// The JSON writer, the terminal summary and the other formats (SQLite, HTML, SARIF, timeline)
// all read this model; none of them looks at the rules. Times are seconds. The findings
// themselves are the patterns' (finding.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cause_result.h"
#include "finding.h"

namespace collwrap {

// Version of the JSON report layout (share/schema/report.schema.json). Bump the major number
// when a field changes meaning or disappears, the minor one when fields are added.
inline constexpr const char* kReportSchemaVersion = "1.7";

struct RankSummary {
  std::int32_t rank = 0;
  std::string node;
  std::uint32_t threads = 0;
  double time_s = 0;      // first Enter to last Exit over its threads
  double mpi_time_s = 0;  // total time inside MPI calls, all threads
};

struct PatternTotal {
  std::string pattern;
  std::string description;
  std::uint64_t findings = 0;
  std::uint64_t occurrences = 0;
  double wait_time_s = 0;
  double percent_of_total_time = 0;
};

struct TraceInfo {
  std::string path;
  std::string program;
  std::int32_t world_size = 0;
  std::uint32_t locations = 0;
  std::vector<std::string> nodes;
  std::uint32_t communicators = 0;
  double duration_s = 0;
  std::uint64_t events = 0;
};

struct MatchSummary {
  std::uint64_t messages = 0;
  std::uint64_t collectives = 0;
  std::uint64_t unmatched_sends = 0;
  std::uint64_t unmatched_receives = 0;
  std::uint64_t incomplete_collectives = 0;
  std::uint64_t unmatched_requests = 0;
  std::uint64_t mismatched_collectives = 0;  // members disagree on operation or root
  std::uint64_t invalid_ops = 0;             // peer or communicator unknown
};

struct ClockSummary {
  std::uint64_t violations = 0;  // receives ending before their send began, after correction
  std::uint64_t violations_before_repair = 0;
  std::uint64_t violations_after_repair = 0;
  double max_repair_shift_s = 0;
  std::uint32_t offsets_per_location_min = 0;
  double max_offset_stddev_s = 0;
};

struct OptionsSummary {
  std::vector<std::string> patterns;
  std::optional<std::uint64_t> eager_threshold_bytes;  // unset: chosen per message by node
  double min_wait_s = 0;
  double sendrecv_window_s = 0;
};

struct Summary {
  double total_time_s = 0;  // sum over locations of their time
  double total_mpi_time_s = 0;
  std::uint64_t findings = 0;
  std::uint64_t instances = 0;
  std::uint64_t instances_below_min_wait = 0;
  std::vector<PatternTotal> patterns;  // every selected pattern, catalog order
  MatchSummary matching;
  ClockSummary clock;
  std::vector<std::string> warnings;
  OptionsSummary options;
};

// Point-to-point traffic from one rank to another (report/comm_matrix.h). Transfer time of a
// message: completion of its receive − start of its send, at least 0.
struct CommPair {
  std::int32_t sender = 0;  // world ranks
  std::int32_t receiver = 0;
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
  double transfer_min_s = 0;
  double transfer_max_s = 0;
  double transfer_median_s = 0;
  double transfer_mean_s = 0;
  double transfer_stddev_s = 0;
};

// Time of the calls of one MPI function moving a similar amount of data (sent plus received
// over the call's records; report/operation_stats.h).
struct OperationStats {
  std::string function;         // "MPI_Send"
  std::uint64_t bytes_min = 0;  // size bucket [bytes_min, bytes_max]; [0, 0]: no data
  std::uint64_t bytes_max = 0;
  std::uint64_t count = 0;
  double total_s = 0;
  double mean_s = 0;
  double min_s = 0;
  double max_s = 0;
  double percent_of_mpi_time = 0;  // of the time in all MPI calls of the trace
};

// Grains of compute between MPI calls (report/compute_grains.h), counted in one bin of
// lengths [low_s, high_s); the last bin has no upper bound.
struct GrainBin {
  double low_s = 0;
  std::optional<double> high_s;
  std::uint64_t count = 0;
  double total_s = 0;
};

// The compute grains of one location: from the Leave of each MPI call to the Enter of the next.
struct GrainDistribution {
  std::int32_t rank = 0;
  std::int32_t thread = 0;
  std::uint64_t count = 0;
  double total_s = 0;
  double min_s = 0;
  double median_s = 0;
  double mean_s = 0;
  double max_s = 0;
  std::vector<GrainBin> histogram;  // by powers of ten, every bin listed
};

// How much of the observed waiting the machine noise of a `collwrap-bench noise` file explains
// (analyzer --noise FILE; report/compute_grains.h says how it is computed and assumed).
struct NoisePrediction {
  std::string file;
  std::uint32_t noise_ranks = 0;       // ranks of the noise collection
  std::uint32_t processes = 0;         // p: the trace's ranks
  std::uint32_t metric_processes = 0;  // ranks whose noise the metrics use: min(p, noise_ranks)
  double noise_coverage = 0;           // integral C and S of the noise over those ranks
  double noise_synchronicity = 0;
  std::uint64_t grains = 0;    // compute grains of all locations
  double compute_s = 0;        // their total length
  double delay_s = 0;          // expected lengthening of the grains by the slowest of p ranks
  double wait_s = 0;           // the part of it spent waiting for another rank's noise
  double observed_wait_s = 0;  // waiting found by the patterns
  std::optional<double> explained_fraction;  // wait_s / observed_wait_s; unset without waiting
};

struct AnalysisResult {
  std::string schema_version = kReportSchemaVersion;
  std::string tool_version;
  TraceInfo trace;
  std::vector<RankSummary> ranks;
  std::vector<Finding> findings;  // worst (largest wait_time_s) first
  Summary summary;
  std::vector<CommPair> communication;     // sender, then receiver ascending
  std::vector<OperationStats> operations;  // largest total_s first
  std::vector<GrainDistribution> grains;   // by rank, then thread
  std::optional<NoisePrediction> noise;    // with analyzer --noise only
  std::optional<CauseAnalysis> causes;     // root causes, critical path, POP (cause_result.h)
};

}  // namespace collwrap
