#include "slice_graph.h"

#include <algorithm>

#include "flat_map.h"
#include "replay_slices.h"

namespace collwrap {

std::uint32_t SliceGraph::local(std::uint32_t global_call) const {
  const auto it = std::lower_bound(by_global.begin(), by_global.end(), global_call,
                                   [](const std::pair<std::uint32_t, std::uint32_t>& e,
                                      std::uint32_t g) { return e.first < g; });
  return it != by_global.end() && it->first == global_call ? it->second : kNone;
}

SliceGraph cut_slice_graph(const ReplayGraph& whole, const SliceCuts& cuts, std::size_t s,
                           std::span<const std::uint32_t> handed) {
  SliceGraph slice;
  ReplayGraph& g = slice.graph;
  g.begin = whole.begin;
  const std::size_t locations = whole.locations();
  // The locations' calls: the slice's, then the next one.
  for (std::uint32_t loc = 0; loc < locations; ++loc) {
    g.loc_first_call.push_back(static_cast<std::uint32_t>(slice.global.size()));
    const std::uint32_t first = cuts.row(s)[loc], next = cuts.row(s + 1)[loc];
    const std::uint32_t last = std::min(next + 1, whole.loc_first_call[loc + 1]);
    slice.from.push_back(static_cast<std::uint32_t>(slice.global.size()));
    slice.to.push_back(slice.from.back() + (next - first));
    for (std::uint32_t c = first; c < last; ++c) {
      slice.global.push_back(c);
      g.call_loc.push_back(loc);
    }
  }
  g.loc_first_call.push_back(static_cast<std::uint32_t>(slice.global.size()));
  const std::uint32_t own = g.loc_first_call.back();
  // The locations' calls come in the order of their global ids.
  for (std::uint32_t c = 0; c < own; ++c) slice.by_global.emplace_back(slice.global[c], c);
  // The handed-over calls the locations' parts do not hold already.
  for (const std::uint32_t c : handed)
    if (slice.local(c) == kNone) {
      slice.global.push_back(c);
      g.call_loc.push_back(static_cast<std::uint32_t>(locations));
    }
  for (std::uint32_t c = own; c < slice.global.size(); ++c)
    slice.by_global.emplace_back(slice.global[c], c);
  std::sort(slice.by_global.begin(), slice.by_global.end());

  // What the replay reads of each call: the costs of the locations' calls (the next ones are
  // entered here, so their segments count), the gates of those the slice leaves; of the
  // handed-over calls the segments, which the critical path reads when it goes through one.
  const std::uint32_t calls = static_cast<std::uint32_t>(slice.global.size());
  g.call_costs.assign(calls, {});
  g.gate_first.assign(calls + 1, 0);
  FlatMap<std::uint64_t, U64Hash> instance_of(16);  // whole instance → local
  std::vector<std::uint32_t> instances;             // local → whole
  for (std::uint32_t c = 0; c < calls; ++c) {
    const std::uint32_t w = slice.global[c];
    g.call_costs[c].segment = whole.call_costs[w].segment;
    if (g.call_costs[c].segment == ReplayGraph::kLongCost)
      g.long_segments.emplace_back(c, whole.segment(w));
    if (c < own) {
      g.call_costs[c].own = whole.call_costs[w].own;
      if (g.call_costs[c].own == ReplayGraph::kLongCost)
        g.long_own_costs.emplace_back(c, whole.own_cost(w));
      if (c < slice.to[g.call_loc[c]])  // not the next call, which is entered only
        for (const std::uint32_t gate : whole.gates_of(w)) {
          std::uint32_t mapped = kNone;
          if (gate & kCollectiveGate) {
            const std::uint32_t i = gate & ~kCollectiveGate;
            const auto next = static_cast<std::uint32_t>(instances.size());
            mapped = instance_of.insert(i, next);
            if (mapped == next) instances.push_back(i);
            mapped |= kCollectiveGate;
          } else {
            mapped = slice.local(gate);
          }
          if (mapped != kNone) g.gates.push_back(mapped);
        }
    }
    g.gate_first[c + 1] = static_cast<std::uint32_t>(g.gates.size());
  }
  for (const std::uint32_t i : instances) {
    g.member_first.push_back(static_cast<std::uint32_t>(g.member_calls.size()));
    for (const std::uint32_t m : whole.members_of(i))
      g.member_calls.push_back(m == kNone ? kNone : slice.local(m));
  }
  g.member_first.push_back(static_cast<std::uint32_t>(g.member_calls.size()));
  return slice;
}

}  // namespace collwrap
