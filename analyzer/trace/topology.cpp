#include "topology.h"

#include <algorithm>
#include <map>

namespace collwrap {

NeighborLists cartesian_neighbors(const CartesianTopology& t) {
  const std::size_t dims = t.dims.size();
  const auto valid = [&](const std::vector<std::uint32_t>& c) {
    if (c.size() != dims) return false;
    for (std::size_t d = 0; d < dims; ++d)
      if (c[d] >= t.dims[d]) return false;
    return true;
  };
  std::map<std::vector<std::uint32_t>, std::uint32_t> rank_at;
  for (std::uint32_t r = 0; r < t.coords.size(); ++r)
    if (valid(t.coords[r])) rank_at.emplace(t.coords[r], r);

  NeighborLists neighbors(t.coords.size());
  for (std::uint32_t r = 0; r < t.coords.size(); ++r) {
    if (!valid(t.coords[r])) continue;
    for (std::size_t d = 0; d < dims; ++d) {
      for (const int step : {-1, 1}) {
        std::vector<std::uint32_t> c = t.coords[r];
        const std::int64_t moved = std::int64_t{c[d]} + step;
        const std::int64_t size = t.dims[d];
        if (moved < 0 || moved >= size) {
          if (d >= t.periodic.size() || !t.periodic[d]) continue;
          c[d] = static_cast<std::uint32_t>((moved + size) % size);
        } else {
          c[d] = static_cast<std::uint32_t>(moved);
        }
        if (const auto it = rank_at.find(c); it != rank_at.end())
          neighbors[r].push_back(it->second);
      }
    }
  }
  return neighbors;
}

std::vector<std::uint32_t> ranks_within(const Communicator& comm,
                                        const std::vector<std::int32_t>& world_ranks) {
  std::vector<std::uint32_t> ranks;
  for (const std::int32_t w : world_ranks) {
    const auto it = std::find(comm.world_ranks.begin(), comm.world_ranks.end(), w);
    if (it != comm.world_ranks.end())
      ranks.push_back(static_cast<std::uint32_t>(it - comm.world_ranks.begin()));
  }
  return ranks;
}

}  // namespace collwrap
