#include "slice_graph.h"

#include <algorithm>
#include <stdexcept>

#include "replay_slices.h"

namespace collwrap {

std::uint32_t SliceGraph::local(std::uint32_t global_call) const {
  if (const std::uint32_t c = runs.local(global_call); c != kNone) return c;
  const auto handed = global.begin() + runs.size();
  const auto it = std::lower_bound(handed, global.end(), global_call);
  return it != global.end() && *it == global_call ? static_cast<std::uint32_t>(it - global.begin())
                                                  : kNone;
}

namespace {

void set_segment(ReplayGraph& g, std::uint32_t c, TimeNs segment) {
  g.call_costs[c].segment = segment < ReplayGraph::kLongCost ? static_cast<std::uint32_t>(segment)
                                                             : ReplayGraph::kLongCost;
  if (g.call_costs[c].segment == ReplayGraph::kLongCost) g.long_segments.emplace_back(c, segment);
}

}  // namespace

SliceGraph slice_graph_from_rows(const SliceCuts& cuts, std::size_t s, SliceRows rows) {
  SliceGraph slice;
  ReplayGraph& g = slice.graph;
  g.begin = rows.begin;
  const std::size_t locations = cuts.locations;
  // Every table sized up front: at 10^8 events a slice has some 16 million calls, whose
  // tables would otherwise be copied as they grow.
  std::size_t row_calls = 0, row_gates = 0;
  // The lowest and highest collective instance the gates name.
  std::uint32_t lowest = kNone, highest = 0;
  for (const GraphRows& r : rows.locations) {
    row_calls += r.calls();
    row_gates += r.gates.size();
    for (const std::uint32_t gate : r.gates)
      if (gate & kCollectiveGate) {
        lowest = std::min(lowest, gate & ~kCollectiveGate);
        highest = std::max(highest, gate & ~kCollectiveGate);
      }
  }
  slice.global.reserve(row_calls + rows.handed.size());
  g.call_loc.reserve(row_calls + rows.handed.size());
  g.gates.reserve(row_gates);
  // The locations' calls: the slice's, then the next one.
  for (std::uint32_t loc = 0; loc < locations; ++loc) {
    g.loc_first_call.push_back(static_cast<std::uint32_t>(slice.global.size()));
    const std::uint32_t first = cuts.row(s)[loc], next = cuts.row(s + 1)[loc];
    slice.from.push_back(static_cast<std::uint32_t>(slice.global.size()));
    slice.to.push_back(slice.from.back() + (next - first));
    slice.runs.add(first, first + static_cast<std::uint32_t>(rows.locations[loc].calls()));
    for (std::uint32_t r = 0; r < rows.locations[loc].calls(); ++r) {
      slice.global.push_back(first + r);
      g.call_loc.push_back(loc);
    }
  }
  g.loc_first_call.push_back(static_cast<std::uint32_t>(slice.global.size()));
  const std::uint32_t own = g.loc_first_call.back();
  // The handed-over calls the locations' parts do not hold already, by call.
  std::vector<const HandedCall*> handed;
  for (const HandedCall& h : rows.handed) {
    if (slice.global.size() > own && h.call <= slice.global.back())
      throw std::invalid_argument("a slice's handed-over calls are not in ascending order");
    if (slice.local(h.call) == kNone) {
      slice.global.push_back(h.call);
      g.call_loc.push_back(static_cast<std::uint32_t>(locations));
      handed.push_back(&h);
    }
  }

  // What the replay reads of each call: the costs of the locations' calls (the next ones are
  // entered here, so their segments count), the gates of those the slice leaves; of the
  // handed-over calls the segments, which the critical path reads when it goes through one.
  const std::uint32_t calls = static_cast<std::uint32_t>(slice.global.size());
  g.call_costs.assign(calls, {});
  g.gate_first.assign(calls + 1, 0);
  // Whole instance → local, by whole instance from the lowest: a location's calls wait for
  // instances in ascending order, so that a table read location by location stays in the
  // cache where a hash map's random slots did not (at 10^8 events its misses were half of
  // this function's 0.5-0.7 s). 4 bytes for each instance the slice's gates span.
  std::vector<std::uint32_t> instance_of(lowest <= highest ? highest - lowest + 1 : 0, kNone);
  std::vector<std::uint32_t> instances;  // local → whole
  const bool typed = std::any_of(rows.locations.begin(), rows.locations.end(),
                                 [](const GraphRows& r) { return !r.segment_type.empty(); });
  if (typed) slice.segment_type.assign(calls, kNone);
  for (std::uint32_t c = 0; c < calls; ++c) {
    if (c >= own) {
      set_segment(g, c, handed[c - own]->segment);
      if (typed) slice.segment_type[c] = handed[c - own]->segment_type;
      g.gate_first[c + 1] = static_cast<std::uint32_t>(g.gates.size());
      continue;
    }
    const std::uint32_t loc = g.call_loc[c];
    const GraphRows& r = rows.locations[loc];
    const std::uint32_t row = c - g.loc_first_call[loc], w = slice.global[c];
    const ReplayGraph::CallCosts costs = r.call_costs[row];
    g.call_costs[c] = costs;
    if (typed && !r.segment_type.empty()) slice.segment_type[c] = r.segment_type[row];
    if (costs.segment == ReplayGraph::kLongCost)
      g.long_segments.emplace_back(c, ReplayGraph::long_cost(r.long_segments, w));
    if (costs.own == ReplayGraph::kLongCost)
      g.long_own_costs.emplace_back(c, ReplayGraph::long_cost(r.long_own_costs, w));
    if (c < slice.to[loc])  // not the next call, which is entered only
      for (std::uint32_t k = r.gate_first[row]; k < r.gate_first[row + 1]; ++k) {
        const std::uint32_t gate = r.gates[k];
        std::uint32_t mapped = kNone;
        if (gate & kCollectiveGate) {
          const std::uint32_t i = gate & ~kCollectiveGate;
          std::uint32_t& local = instance_of[i - lowest];
          if (local == kNone) {
            local = static_cast<std::uint32_t>(instances.size());
            instances.push_back(i);
          }
          mapped = local | kCollectiveGate;
        } else {
          mapped = slice.local(gate);
        }
        if (mapped != kNone) g.gates.push_back(mapped);
      }
    g.gate_first[c + 1] = static_cast<std::uint32_t>(g.gates.size());
  }
  rows.locations.clear();
  for (const std::uint32_t i : instances) {
    g.member_first.push_back(static_cast<std::uint32_t>(g.member_calls.size()));
    auto m = std::lower_bound(
        rows.members.begin(), rows.members.end(), i,
        [](const GraphRows::Member& e, std::uint32_t instance) { return e.instance < instance; });
    for (; m != rows.members.end() && m->instance == i; ++m)
      g.member_calls.push_back(m->call == kNone ? kNone : slice.local(m->call));
  }
  g.member_first.push_back(static_cast<std::uint32_t>(g.member_calls.size()));
  return slice;
}

SliceRows slice_rows(const ReplayGraph& whole, const SliceCuts& cuts, std::size_t s,
                     std::span<const std::uint32_t> handed) {
  SliceRows rows;
  rows.begin = whole.begin;
  std::vector<std::uint32_t> instances;
  for (std::uint32_t loc = 0; loc < cuts.locations; ++loc) {
    GraphRows& r = rows.locations.emplace_back();
    const std::uint32_t first = cuts.row(s)[loc], next = cuts.row(s + 1)[loc];
    const std::uint32_t last = std::min(next + 1, whole.loc_first_call[loc + 1]);
    r.first_call = first;
    for (std::uint32_t c = first; c < last; ++c) {
      r.call_costs.push_back(whole.call_costs[c]);
      if (whole.call_costs[c].segment == ReplayGraph::kLongCost)
        r.long_segments.emplace_back(c, whole.segment(c));
      if (whole.call_costs[c].own == ReplayGraph::kLongCost)
        r.long_own_costs.emplace_back(c, whole.own_cost(c));
      for (const std::uint32_t gate : whole.gates_of(c)) {
        r.gates.push_back(gate);
        if (gate & kCollectiveGate && c < next) instances.push_back(gate & ~kCollectiveGate);
      }
      r.gate_first.push_back(static_cast<std::uint32_t>(r.gates.size()));
    }
  }
  std::sort(instances.begin(), instances.end());
  instances.erase(std::unique(instances.begin(), instances.end()), instances.end());
  for (const std::uint32_t i : instances) {
    std::uint32_t position = 0;
    for (const std::uint32_t m : whole.members_of(i)) rows.members.push_back({i, position++, m});
  }
  for (const std::uint32_t c : handed) rows.handed.push_back({c, kNone, whole.segment(c)});
  return rows;
}

SliceGraph cut_slice_graph(const ReplayGraph& whole, const SliceCuts& cuts, std::size_t s,
                           std::span<const std::uint32_t> handed) {
  return slice_graph_from_rows(cuts, s, slice_rows(whole, cuts, s, handed));
}

}  // namespace collwrap
