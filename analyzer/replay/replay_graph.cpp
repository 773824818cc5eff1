#include "replay_graph.h"

#include <algorithm>
#include <limits>

namespace collwrap {
namespace {

std::uint32_t call_of(const Trace& trace, const ReplayGraph& graph, OpRef op) {
  if (!op.valid()) return kNone;
  const std::uint32_t call = trace.locations[op.loc].op_call[op.op];
  return call == kNone ? kNone : graph.global(op.loc, call);
}

bool synchronous_send(const Trace& trace, OpRef send) {
  const Location& l = trace.locations[send.loc];
  const std::uint32_t call = l.op_call[send.op];
  return call != kNone && trace.regions[l.call_region[call]].mode == SendMode::Synchronous;
}

// Calls every gate (waiting call, gate) in the graph; run twice: once to count, once to fill.
template <typename Add>
void for_each_gate(const Trace& trace, const Matching& matching, const ReplayGraph& graph,
                   Add&& add) {
  for (const Message& m : matching.messages) {
    const std::uint32_t send = call_of(trace, graph, m.send);
    const std::uint32_t recv = call_of(trace, graph, m.recv);
    if (send != kNone && recv != kNone && send != recv) add(recv, send);
    if (synchronous_send(trace, m.send)) {
      const std::uint32_t done = call_of(trace, graph, send_done(trace, matching, m));
      const std::uint32_t post = call_of(trace, graph, recv_post(matching, m));
      if (done != kNone && post != kNone && done != post) add(done, post);
    }
  }
  for (std::uint32_t i = 0; i < matching.collectives.size(); ++i) {
    const CollectiveInstance& c = matching.collectives[i];
    if (!c.complete) continue;
    const CollFamily family = c.family;
    const NeighborLists& in_neighbors = trace.comms[c.comm].in_neighbors;
    std::uint32_t root_call = kNone;
    for (std::uint32_t j = 0; j < c.member_count; ++j) {
      const std::uint32_t m = c.first_member + j;
      if (trace.locations[matching.members[m].loc].rank == c.root)
        root_call = graph.member_calls[graph.member_first[i] + j];
    }
    for (std::uint32_t j = 0; j < c.member_count; ++j) {
      const OpRef member = matching.members[c.first_member + j];
      const std::uint32_t call = call_of(trace, graph, member);
      if (call == kNone) continue;
      const bool is_root = trace.locations[member.loc].rank == c.root;
      switch (family) {
        case CollFamily::Barrier:
        case CollFamily::NxN:
        case CollFamily::Prefix:
          add(call, kCollectiveGate | i);
          break;
        case CollFamily::NToOne:
          if (is_root) add(call, kCollectiveGate | i);
          break;
        case CollFamily::OneToN:
          if (!is_root && root_call != kNone && root_call != call) add(call, root_call);
          break;
        case CollFamily::Neighbor:
          // Members are in rank-in-communicator order in a complete instance.
          if (in_neighbors.size() != c.member_count) break;
          for (const std::uint32_t k : in_neighbors[j]) {
            const std::uint32_t source =
                k < c.member_count ? graph.member_calls[graph.member_first[i] + k] : kNone;
            if (source != kNone && source != call) add(call, source);
          }
          break;
        case CollFamily::Fence:
        case CollFamily::WindowCreate:
        case CollFamily::WindowFree:
        case CollFamily::Other:
          break;
      }
    }
  }
  // MPI_Init and MPI_Finalize: the two instances after the matched ones.
  for (std::uint32_t i = static_cast<std::uint32_t>(matching.collectives.size());
       i + 1 < graph.member_first.size(); ++i)
    for (std::uint32_t m = graph.member_first[i]; m < graph.member_first[i + 1]; ++m)
      add(graph.member_calls[m], kCollectiveGate | i);
}

// Length of the compute segment that ends at the Enter of `call`: from the Leave of the
// previous call on its location (or the start of the trace) to that Enter, at least 0.
TimeNs recorded_segment(const Trace& t, const ReplayGraph& g, std::uint32_t call) {
  const std::uint32_t loc = g.call_loc[call];
  const std::uint32_t i = call - g.loc_first_call[loc];
  const Location& l = t.locations[loc];
  const TimeNs start = i == 0 ? t.begin : l.call_leave[i - 1];
  return l.call_enter[i] > start ? l.call_enter[i] - start : 0;
}

std::uint32_t short_cost(TimeNs cost) {
  return cost < ReplayGraph::kLongCost ? static_cast<std::uint32_t>(cost) : ReplayGraph::kLongCost;
}

void set_call_costs(const Trace& trace, ReplayGraph& graph) {
  std::vector<TimeNs> latest_member(graph.instances(), std::numeric_limits<TimeNs>::min());
  for (std::uint32_t i = 0; i < latest_member.size(); ++i)
    for (const std::uint32_t call : graph.members_of(i))
      if (call != kNone)
        latest_member[i] = std::max(latest_member[i], recorded_enter(trace, graph, call));
  graph.call_costs.resize(graph.calls());
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t i = 0, g = graph.loc_first_call[loc]; i < l.calls(); ++i, ++g) {
      TimeNs from = l.call_enter[i];
      for (const std::uint32_t gate : graph.gates_of(g))
        from = std::max(from, gate & kCollectiveGate ? latest_member[gate & ~kCollectiveGate]
                                                     : recorded_enter(trace, graph, gate));
      const TimeNs own = std::max<TimeNs>(0, l.call_leave[i] - from);
      const TimeNs segment = recorded_segment(trace, graph, g);
      graph.call_costs[g] = {short_cost(segment), short_cost(own)};
      if (graph.call_costs[g].segment == ReplayGraph::kLongCost)
        graph.long_segments.emplace_back(g, segment);
      if (graph.call_costs[g].own == ReplayGraph::kLongCost)
        graph.long_own_costs.emplace_back(g, own);
    }
  }
}

}  // namespace

ReplayGraph build_replay_graph(const Trace& trace, const Matching& matching) {
  ReplayGraph graph;
  graph.begin = trace.begin;
  graph.loc_first_call.reserve(trace.locations.size() + 1);
  std::uint32_t total = 0;
  for (const Location& l : trace.locations) {
    graph.loc_first_call.push_back(total);
    total += static_cast<std::uint32_t>(l.calls());
  }
  graph.loc_first_call.push_back(total);
  graph.call_loc.resize(total);
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc)
    for (std::uint32_t g = graph.loc_first_call[loc]; g < graph.loc_first_call[loc + 1]; ++g)
      graph.call_loc[g] = loc;

  // The call whose Enter counts for each collective member.
  graph.member_first.reserve(matching.collectives.size() + 3);
  for (const CollectiveInstance& c : matching.collectives) {
    graph.member_first.push_back(static_cast<std::uint32_t>(graph.member_calls.size()));
    for (std::uint32_t j = 0; j < c.member_count; ++j) {
      const std::uint32_t m = c.first_member + j;
      const OpRef start =
          c.nonblocking && m < matching.starts.size() ? matching.starts[m] : matching.members[m];
      graph.member_calls.push_back(call_of(trace, graph, start));
    }
  }
  // MPI_Init on every main thread, as one more instance: the ranks start the program at
  // different times, and the runs they replay start together, when the last one is in MPI_Init.
  // MPI_Finalize too: it synchronizes the ranks (Open MPI ends it with a fence of all
  // processes), so a rank that finalizes early waits there for the last one.
  for (const RegionClass cls : {RegionClass::Init, RegionClass::Finalize}) {
    graph.member_first.push_back(static_cast<std::uint32_t>(graph.member_calls.size()));
    for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
      const Location& l = trace.locations[loc];
      for (std::uint32_t i = 0; l.thread == 0 && i < l.calls(); ++i)
        if (trace.regions[l.call_region[i]].cls == cls) {
          graph.member_calls.push_back(graph.global(loc, i));
          break;
        }
    }
  }
  graph.member_first.push_back(static_cast<std::uint32_t>(graph.member_calls.size()));

  graph.gate_first.assign(total + 1, 0);
  for_each_gate(trace, matching, graph,
                [&](std::uint32_t call, std::uint32_t) { ++graph.gate_first[call + 1]; });
  for (std::uint32_t g = 0; g < total; ++g) graph.gate_first[g + 1] += graph.gate_first[g];
  graph.gates.resize(graph.gate_first[total]);
  std::vector<std::uint32_t> fill(graph.gate_first.begin(), graph.gate_first.end() - 1);
  for_each_gate(trace, matching, graph,
                [&](std::uint32_t call, std::uint32_t gate) { graph.gates[fill[call]++] = gate; });
  set_call_costs(trace, graph);
  return graph;
}

TimeNs ReplayGraph::long_cost(const std::vector<std::pair<std::uint32_t, TimeNs>>& costs,
                              std::uint32_t g) {
  const auto it =
      std::lower_bound(costs.begin(), costs.end(), g,
                       [](const auto& entry, std::uint32_t call) { return entry.first < call; });
  return it != costs.end() && it->first == g ? it->second : 0;
}

}  // namespace collwrap
