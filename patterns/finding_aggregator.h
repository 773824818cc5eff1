// Groups pattern instances into findings: one per (pattern, rank, thread, call site), summing
// as instances arrive so that memory grows with call sites, not with instances.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pattern.h"

namespace collwrap {

struct FindingStats {
  const Pattern* pattern = nullptr;
  std::uint32_t loc = kNone;
  std::uint32_t callsite = kNone;  // index into Trace::callsites, or kNone
  std::uint32_t region = kNone;    // index into Trace::regions

  std::uint64_t occurrences = 0;
  TimeNs total = 0;
  TimeNs max = 0;
  std::vector<Peer> peers;  // ascending

  struct Sample {
    std::uint32_t call;
    TimeNs idle;
    std::vector<Peer> peers;  // as the rule reported them
  };
  std::vector<Sample> top;  // worst first

  std::array<std::uint64_t, 5> send_modes{};  // indexed by SendMode
  std::uint64_t same_source = 0;
  std::uint64_t different_source = 0;
  TimeNs optimal_distance_sum = 0;  // early_wait
  TimeNs actual_distance_sum = 0;
  std::uint64_t distances = 0;
  std::uint32_t related_call = kNone;  // of the worst instance, same location
  std::uint64_t transfers = 0;         // frequent_small_, large_, unbalanced_communication
  std::uint64_t transfer_bytes = 0;
  std::uint64_t mean_pair_bytes = 0;  // unbalanced_communication: the same in every instance
};

class FindingAggregator : public InstanceSink {
 public:
  explicit FindingAggregator(const Trace& trace, std::size_t top_instances = 3)
      : trace_(trace), top_instances_(top_instances) {}

  void add(const Instance& instance) override;

  const std::vector<FindingStats>& findings() const { return findings_; }
  std::uint64_t instances() const { return instances_; }

 private:
  struct Key {
    const Pattern* pattern;
    std::uint32_t loc, callsite, region;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };

  void keep_if_among_worst(FindingStats& stats, const Instance& instance) const;

  const Trace& trace_;
  std::size_t top_instances_;
  std::unordered_map<Key, std::size_t, KeyHash> index_;
  std::vector<FindingStats> findings_;
  std::uint64_t instances_ = 0;
};

}  // namespace collwrap
