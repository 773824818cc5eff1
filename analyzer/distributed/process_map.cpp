#include "process_map.h"

#include <algorithm>

namespace collwrap {
namespace {

void add_unique(std::vector<unsigned>& sorted, unsigned value) {
  const auto at = std::lower_bound(sorted.begin(), sorted.end(), value);
  if (at == sorted.end() || *at != value) sorted.insert(at, value);
}

}  // namespace

ProcessMap::ProcessMap(const Trace& trace, const std::vector<LocationRange>& shares)
    : processes_(static_cast<unsigned>(shares.size())),
      location_holder_(trace.locations.size(), 0) {
  for (unsigned p = 0; p < shares.size(); ++p)
    for (std::size_t l = shares[p].first; l < std::min(shares[p].end, trace.locations.size()); ++l)
      location_holder_[l] = p;
  for (std::uint32_t l = 0; l < trace.locations.size(); ++l) {
    const std::int32_t rank = trace.locations[l].rank;
    if (rank < 0) continue;
    if (static_cast<std::size_t>(rank) >= rank_holders_.size()) rank_holders_.resize(rank + 1);
    add_unique(rank_holders_[rank], location_holder_[l]);
  }
  comm_holders_.resize(trace.comms.size());
  for (std::size_t c = 0; c < trace.comms.size(); ++c)
    for (const std::int32_t rank : trace.comms[c].world_ranks)
      for (const unsigned p : holders_of_rank(rank)) add_unique(comm_holders_[c], p);
}

std::span<const unsigned> ProcessMap::holders_of_rank(std::int32_t rank) const {
  if (rank < 0 || static_cast<std::size_t>(rank) >= rank_holders_.size()) return {};
  return rank_holders_[rank];
}

std::span<const unsigned> ProcessMap::holders_of_comm(std::uint32_t comm) const {
  if (comm >= comm_holders_.size()) return {};
  return comm_holders_[comm];
}

}  // namespace collwrap
