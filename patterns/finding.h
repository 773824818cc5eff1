// A finding: one pattern at one call site on one rank and thread, the unit every report lists.
// The rules report instances; findings.h groups them into findings. Times are seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collwrap {

struct SourceLocation {
  std::string function;    // MPI function, e.g. "MPI_Irecv"
  std::string file;        // as recorded; empty when unknown
  std::uint32_t line = 0;  // 0 when unknown

  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// The threads of each peer rank that a finding waited for, parallel to its peers: ascending,
// empty for a rank whose thread is unknown (the passive target of one-sided operations).
using PeerThreads = std::vector<std::vector<std::int32_t>>;

// One of the worst instances behind a finding.
struct InstanceSample {
  double time_s = 0;  // Enter of the call, since the start of the trace
  double wait_s = 0;
  std::vector<std::int32_t> peers;  // world ranks, ascending
  PeerThreads peer_threads;         // parallel to peers

  friend bool operator==(const InstanceSample&, const InstanceSample&) = default;
};

// Pattern-specific facts; empty/unset when the pattern has none.
struct FindingDetails {
  std::vector<std::pair<std::string, std::uint64_t>> send_modes;  // mode → instances, most first
  std::uint64_t same_source = 0;  // wrong_order instances by origin of the earlier message
  std::uint64_t different_source = 0;
  std::optional<double> optimal_distance_s;    // early_wait, mean over instances
  std::optional<double> current_distance_s;    // early_wait, mean over instances
  std::optional<SourceLocation> related_call;  // nonblocking call, posting call or paired call
  // frequent_small_communication, large_communication, unbalanced_communication: the
  // transfers and their bytes; unbalanced_communication: the mean bytes per communicating pair.
  std::uint64_t transfers = 0;
  std::uint64_t transfer_bytes = 0;
  std::uint64_t mean_pair_bytes = 0;

  friend bool operator==(const FindingDetails&, const FindingDetails&) = default;
};

// One pattern at one call site on one rank and thread.
struct Finding {
  std::string pattern;
  std::int32_t rank = 0;
  std::int32_t thread = 0;
  std::string node;
  std::string file;        // absolute path as recorded; empty when unknown
  std::uint32_t line = 0;  // 0 when unknown
  std::string function;    // enclosing user function; empty when unknown
  std::string mpi_function;
  std::vector<std::int32_t> peers;  // world ranks, ascending
  PeerThreads peer_threads;         // parallel to peers
  std::uint64_t occurrences = 0;
  double wait_time_s = 0;
  double max_wait_s = 0;
  std::string comment;
  std::string recommendation;
  FindingDetails details;
  std::vector<InstanceSample> top_instances;  // worst first

  friend bool operator==(const Finding&, const Finding&) = default;
};

}  // namespace collwrap
