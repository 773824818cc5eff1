// The clock condition of a collective instance: which entry a member must follow with its exit.
// The matcher counts violations with it and the clock repair enforces it, so that both apply
// exactly the same rule (collective_family in trace_model.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "trace_model.h"

namespace collwrap {

// Collectives that move no data need not synchronize at all; barriers always do.
constexpr bool collective_synchronizes(CollFamily family, bool moves_data) {
  return moves_data || family == CollFamily::Barrier;
}

// Calls depends(i, entered) for every member i of an instance that cannot have left before
// `entered`, the latest entry among the members it waits for. Members are indexed 0..count−1 in
// rank-in-communicator order (which the prefix family relies on); enter(i) is member i's entry
// time; root is the root's index, or any value ≥ count when the instance has none.
// in_neighbors (neighborhood collectives) lists each rank's in-neighbors; without a list for
// every member the instance states no dependency.
template <typename EnterOf, typename Depends>
void for_each_collective_dependency(CollFamily family, std::uint32_t count, std::uint32_t root,
                                    const NeighborLists* in_neighbors, EnterOf enter,
                                    Depends depends) {
  TimeNs last = std::numeric_limits<TimeNs>::min();
  switch (family) {
    case CollFamily::Prefix:
      for (std::uint32_t i = 0; i < count; ++i) {
        last = std::max(last, enter(i));
        depends(i, last);
      }
      break;
    case CollFamily::Barrier:
    case CollFamily::NxN:
      for (std::uint32_t i = 0; i < count; ++i) last = std::max(last, enter(i));
      for (std::uint32_t i = 0; i < count; ++i) depends(i, last);
      break;
    case CollFamily::OneToN:
      if (root >= count) break;
      for (std::uint32_t i = 0; i < count; ++i)
        if (i != root) depends(i, enter(root));
      break;
    case CollFamily::NToOne:
      if (root >= count) break;
      for (std::uint32_t i = 0; i < count; ++i) last = std::max(last, enter(i));
      depends(root, last);
      break;
    case CollFamily::Neighbor:
      if (in_neighbors == nullptr || in_neighbors->size() != count) break;
      for (std::uint32_t i = 0; i < count; ++i) {
        const std::vector<std::uint32_t>& sources = (*in_neighbors)[i];
        if (sources.empty()) continue;
        TimeNs latest = std::numeric_limits<TimeNs>::min();
        for (const std::uint32_t j : sources)
          if (j < count) latest = std::max(latest, enter(j));
        if (latest != std::numeric_limits<TimeNs>::min()) depends(i, latest);
      }
      break;
    case CollFamily::Fence:
    case CollFamily::WindowCreate:
    case CollFamily::WindowFree:
    case CollFamily::Other:
      break;
  }
}

}  // namespace collwrap
