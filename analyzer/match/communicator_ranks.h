// Rank within a communicator of each world rank, built once per communicator asked about.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "trace_model.h"

namespace collwrap {

class CommunicatorRanks {
 public:
  explicit CommunicatorRanks(const Trace& trace) : trace_(trace) {}

  // kNoWorldRank when the communicator does not contain the rank.
  std::int32_t of(std::uint32_t comm, std::int32_t world_rank) {
    return of(ranks(comm), world_rank);
  }
  // The same from the communicator's table (ranks()), for many ranks of one communicator.
  std::int32_t of(const std::vector<std::int32_t>& table, std::int32_t world_rank) const {
    return world_rank >= 0 && world_rank < trace_.world_size ? table[world_rank] : kNoWorldRank;
  }
  // By world rank, its rank in the communicator, or kNoWorldRank.
  const std::vector<std::int32_t>& ranks(std::uint32_t comm) {
    auto [it, inserted] = ranks_.try_emplace(comm);
    if (inserted) {
      it->second.assign(static_cast<std::size_t>(std::max(trace_.world_size, 0)), kNoWorldRank);
      const auto& members = trace_.comms[comm].world_ranks;
      for (std::size_t i = 0; i < members.size(); ++i)
        if (members[i] >= 0 && members[i] < trace_.world_size)
          it->second[members[i]] = static_cast<std::int32_t>(i);
    }
    return it->second;
  }

 private:
  const Trace& trace_;
  std::unordered_map<std::uint32_t, std::vector<std::int32_t>> ranks_;
};

}  // namespace collwrap
