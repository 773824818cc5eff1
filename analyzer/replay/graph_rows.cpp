#include "graph_rows.h"

#include <algorithm>
#include <limits>

#include "communicator_ranks.h"

namespace collwrap {
namespace {

// The global ids and recorded Enters of a trace's calls, ghosts' included.
class CallIds {
 public:
  CallIds(const Trace& trace, const WholeTraceFacts& facts,
          std::span<const std::vector<std::uint32_t>> origin_call)
      : trace_(trace), facts_(facts), origin_call_(origin_call) {}

  // The global id of call `call` of location `loc` as the trace holds it, or kNone.
  std::uint32_t global(std::uint32_t loc, std::uint32_t call) const {
    if (call == kNone) return kNone;
    const bool ghost = loc < origin_call_.size() && !origin_call_[loc].empty();
    return facts_.loc_first_call[loc] + (ghost ? origin_call_[loc][call] : call);
  }
  // The global id of the call that holds `op`, or kNone.
  std::uint32_t of(OpRef op) const {
    return op.valid() ? global(op.loc, trace_.locations[op.loc].op_call[op.op]) : kNone;
  }
  TimeNs enter(OpRef op) const {
    const Location& l = trace_.locations[op.loc];
    return l.call_enter[l.op_call[op.op]];
  }

 private:
  const Trace& trace_;
  const WholeTraceFacts& facts_;
  std::span<const std::vector<std::uint32_t>> origin_call_;
};

// The op of member m of instance c whose call's Enter counts: the posting call's of a
// nonblocking collective.
OpRef start_of(const Matching& matching, const CollectiveInstance& c, std::uint32_t m) {
  return c.nonblocking && m < matching.starts.size() ? matching.starts[m] : matching.members[m];
}

bool synchronous_send(const Trace& trace, OpRef send) {
  const Location& l = trace.locations[send.loc];
  const std::uint32_t call = l.op_call[send.op];
  return call != kNone && trace.regions[l.call_region[call]].mode == SendMode::Synchronous;
}

// What the gates of an instance's members read of it: from its members, or, where the other
// processes' members are digested, from the digest.
struct InstanceGates {
  TimeNs latest_enter = std::numeric_limits<TimeNs>::min();  // of the members' calls
  std::uint32_t root_call = kNone;                           // global id
  TimeNs root_enter = 0;
};

InstanceGates instance_gates(const Trace& trace, const Matching& matching, const CallIds& ids,
                             const WholeTraceFacts& facts, const CollectiveInstance& c) {
  InstanceGates g;
  if (c.digest != kNone) {
    const CollectiveDigest& d = matching.digests->digests[c.digest];
    g.latest_enter = d.last_joiner.joined;
    if (d.root_member.present() && d.root_member.call != kNone) {
      g.root_call = facts.loc_first_call[d.root_member.loc] + d.root_member.call;
      g.root_enter = d.root_member.joined;
    }
    return g;
  }
  for (std::uint32_t m = c.first_member; m < c.first_member + c.member_count; ++m) {
    const OpRef start = start_of(matching, c, m);
    if (ids.of(start) == kNone) continue;
    g.latest_enter = std::max(g.latest_enter, ids.enter(start));
    if (trace.locations[matching.members[m].loc].rank == c.root) {
      g.root_call = ids.of(start);
      g.root_enter = ids.enter(start);
    }
  }
  return g;
}

// Calls add(waiting call, gate, the gate's recorded Enter) for every gate of a call at the
// `rows_of` locations, and member(instance, position, call) for each of their collective
// members.
template <typename Add, typename Member>
void for_each_gate(const Trace& trace, const Matching& matching, const WholeTraceFacts& facts,
                   const CallIds& ids, const LocationRange& rows_of, Add&& add, Member&& member) {
  for (const Message& m : matching.messages) {
    if (rows_of.contains(m.recv.loc)) {
      const std::uint32_t send = ids.of(m.send), recv = ids.of(m.recv);
      if (send != kNone && recv != kNone && send != recv) add(recv, send, ids.enter(m.send));
    }
    // A synchronous send completes once its receive was posted.
    if (rows_of.contains(m.send.loc) && synchronous_send(trace, m.send)) {
      const OpRef done_op = send_done(trace, matching, m), post_op = recv_post(matching, m);
      const std::uint32_t done = ids.of(done_op), post = ids.of(post_op);
      if (done != kNone && post != kNone && done != post) add(done, post, ids.enter(post_op));
    }
  }
  CommunicatorRanks positions(trace);
  std::uint32_t comm = kNone, n = 0;  // the instance's communicator and its number there
  for (const CollectiveInstance& c : matching.collectives) {
    n = c.comm == comm ? n + 1 : 0;
    comm = c.comm;
    const std::uint32_t instance = facts.comm_first_instance[c.comm] + n;
    bool held = false;
    for (std::uint32_t m = c.first_member; m < c.first_member + c.member_count; ++m)
      if (rows_of.contains(matching.members[m].loc)) {
        held = true;
        const OpRef start = start_of(matching, c, m);
        const std::int32_t rank = trace.locations[start.loc].rank;
        member(instance, static_cast<std::uint32_t>(positions.of(c.comm, rank)), ids.of(start));
      }
    if (!held || !c.complete) continue;
    const InstanceGates gates = instance_gates(trace, matching, ids, facts, c);
    const NeighborLists& in_neighbors = trace.comms[c.comm].in_neighbors;
    for (std::uint32_t j = 0; j < c.member_count; ++j) {
      const OpRef op = matching.members[c.first_member + j];
      if (!rows_of.contains(op.loc)) continue;
      const std::uint32_t call = ids.of(op);
      if (call == kNone) continue;
      const bool is_root = trace.locations[op.loc].rank == c.root;
      switch (c.family) {
        case CollFamily::Barrier:
        case CollFamily::NxN:
        case CollFamily::Prefix:
          add(call, kCollectiveGate | instance, gates.latest_enter);
          break;
        case CollFamily::NToOne:
          if (is_root) add(call, kCollectiveGate | instance, gates.latest_enter);
          break;
        case CollFamily::OneToN:
          if (!is_root && gates.root_call != kNone && gates.root_call != call)
            add(call, gates.root_call, gates.root_enter);
          break;
        case CollFamily::Neighbor:
          // Members are in rank-in-communicator order in a complete instance, every one of
          // them here (neighbourhood collectives are not digested).
          if (in_neighbors.size() != c.member_count) break;
          for (const std::uint32_t k : in_neighbors[j]) {
            if (k >= c.member_count) continue;
            const std::uint32_t m = c.first_member + k;
            const OpRef start = start_of(matching, c, m);
            const std::uint32_t source = ids.of(start);
            if (source != kNone && source != call) add(call, source, ids.enter(start));
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
  // MPI_Init and MPI_Finalize of every main thread: one instance each, after the matched ones,
  // their members visited in instance order as the others' (so that they need no sorting).
  for (const bool init : {true, false}) {
    const RegionClass cls = init ? RegionClass::Init : RegionClass::Finalize;
    for (std::uint32_t loc = static_cast<std::uint32_t>(rows_of.first);
         loc < std::min(rows_of.end, trace.locations.size()); ++loc) {
      const Location& l = trace.locations[loc];
      if (l.thread != 0) continue;
      for (std::uint32_t i = 0; i < l.calls(); ++i)
        if (trace.regions[l.call_region[i]].cls == cls) {
          const std::uint32_t instance = init ? facts.init_instance() : facts.finalize_instance();
          const std::uint32_t call = ids.global(loc, i);
          member(instance, loc, call);
          add(call, kCollectiveGate | instance,
              init ? facts.latest_init_enter : facts.latest_finalize_enter);
          break;
        }
    }
  }
}

// The first Enter of a call of class `cls` on each main thread of `held`, the latest of them.
TimeNs latest_enter_of(const Trace& trace, const LocationRange& held, RegionClass cls) {
  TimeNs latest = WholeTraceFacts::kNoTime;
  for (std::size_t loc = held.first; loc < std::min(held.end, trace.locations.size()); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t i = 0; l.thread == 0 && i < l.calls(); ++i)
      if (trace.regions[l.call_region[i]].cls == cls) {
        latest = std::max(latest, l.call_enter[i]);
        break;
      }
  }
  return latest;
}

}  // namespace

HolderFacts holder_facts(const Trace& trace, const Matching& matching, const LocationRange& held) {
  HolderFacts f;
  f.begin = trace.begin;
  f.calls.assign(trace.locations.size(), 0);
  for (std::size_t loc = held.first; loc < std::min(held.end, trace.locations.size()); ++loc)
    f.calls[loc] = static_cast<std::uint32_t>(trace.locations[loc].calls());
  f.instances.assign(trace.comms.size(), 0);
  for (const CollectiveInstance& c : matching.collectives) ++f.instances[c.comm];
  f.latest_init_enter = latest_enter_of(trace, held, RegionClass::Init);
  f.latest_finalize_enter = latest_enter_of(trace, held, RegionClass::Finalize);
  return f;
}

void merge_facts(HolderFacts& sum, const HolderFacts& part) {
  sum.begin = part.begin;
  sum.calls.resize(std::max(sum.calls.size(), part.calls.size()), 0);
  for (std::size_t loc = 0; loc < part.calls.size(); ++loc) sum.calls[loc] += part.calls[loc];
  sum.instances.resize(std::max(sum.instances.size(), part.instances.size()), 0);
  for (std::size_t c = 0; c < part.instances.size(); ++c)
    sum.instances[c] = std::max(sum.instances[c], part.instances[c]);
  sum.latest_init_enter = std::max(sum.latest_init_enter, part.latest_init_enter);
  sum.latest_finalize_enter = std::max(sum.latest_finalize_enter, part.latest_finalize_enter);
}

WholeTraceFacts whole_trace_facts(const HolderFacts& all) {
  WholeTraceFacts f;
  f.begin = all.begin;
  f.loc_first_call.assign(1, 0);
  for (const std::uint32_t n : all.calls) f.loc_first_call.push_back(f.loc_first_call.back() + n);
  f.comm_first_instance.assign(1, 0);
  for (const std::uint32_t n : all.instances)
    f.comm_first_instance.push_back(f.comm_first_instance.back() + n);
  f.latest_init_enter = all.latest_init_enter;
  f.latest_finalize_enter = all.latest_finalize_enter;
  return f;
}

WholeTraceFacts whole_trace_facts(const Trace& trace, const Matching& matching) {
  return whole_trace_facts(holder_facts(trace, matching, {}));
}

GraphRows graph_rows(const Trace& trace, const Matching& matching, const WholeTraceFacts& facts,
                     const LocationRange& rows_of,
                     std::span<const std::vector<std::uint32_t>> origin_call) {
  const std::size_t first_loc = std::min(rows_of.first, trace.locations.size());
  const std::size_t end_loc = std::min(rows_of.end, trace.locations.size());
  const LocationRange held{first_loc, end_loc};
  const CallIds ids(trace, facts, origin_call);
  GraphRows rows;
  rows.first_call = facts.loc_first_call[first_loc];
  const std::uint32_t calls = facts.loc_first_call[end_loc] - rows.first_call;
  const auto row = [&](std::uint32_t call) { return call - rows.first_call; };

  // One walk finds the gates, which looks up calls on other locations and is what takes the
  // time; each row's latest gate Enter is kept on the way, and the gates as (row, gate) pairs,
  // from which they are counted and placed by row. The pairs are sized for a gate per message
  // and per member, which they exceed only with synchronous sends or neighbourhood collectives.
  struct FoundGate {
    std::uint32_t row, gate;
  };
  std::vector<FoundGate> found;
  std::size_t held_members = 2 * (end_loc - first_loc);  // MPI_Init's and MPI_Finalize's
  for (const OpRef& m : matching.members) held_members += held.contains(m.loc);
  found.reserve(matching.messages.size() + held_members);
  rows.members.reserve(held_members);
  std::vector<TimeNs> latest_gate(calls, std::numeric_limits<TimeNs>::min());
  for_each_gate(
      trace, matching, facts, ids, held,
      [&](std::uint32_t call, std::uint32_t gate, TimeNs enter) {
        found.push_back({row(call), gate});
        latest_gate[row(call)] = std::max(latest_gate[row(call)], enter);
      },
      [&](std::uint32_t instance, std::uint32_t position, std::uint32_t call) {
        rows.members.push_back({instance, position, call});
      });
  // Each row's gates end where the next row's begin; placed from the end of their row down,
  // gate_first[r + 1] comes to hold where row r begins, one place off.
  rows.gate_first.assign(calls + 1, 0);
  for (const FoundGate& f : found) ++rows.gate_first[f.row + 1];
  for (std::uint32_t r = 0; r < calls; ++r) rows.gate_first[r + 1] += rows.gate_first[r];
  rows.gates.resize(rows.gate_first[calls]);
  for (const FoundGate& f : found) rows.gates[--rows.gate_first[f.row + 1]] = f.gate;
  std::vector<FoundGate>().swap(found);
  std::copy(rows.gate_first.begin() + 1, rows.gate_first.end(), rows.gate_first.begin());
  rows.gate_first[calls] = static_cast<std::uint32_t>(rows.gates.size());
  for (std::uint32_t r = 0; r < calls; ++r)
    if (rows.gate_first[r + 1] - rows.gate_first[r] > 1)
      std::sort(rows.gates.begin() + rows.gate_first[r],
                rows.gates.begin() + rows.gate_first[r + 1]);
  if (!std::is_sorted(rows.members.begin(), rows.members.end()))
    std::sort(rows.members.begin(), rows.members.end());

  // Each call's costs: the compute segment before it (from the Leave of the call before on its
  // location, or the trace's start) and what it took beyond its latest dependency.
  rows.call_costs.resize(calls);
  for (std::size_t loc = first_loc; loc < end_loc; ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t i = 0; i < l.calls(); ++i) {
      const std::uint32_t g = facts.loc_first_call[loc] + i;
      const TimeNs start = i == 0 ? trace.begin : l.call_leave[i - 1];
      const TimeNs segment = l.call_enter[i] > start ? l.call_enter[i] - start : 0;
      const TimeNs own =
          std::max<TimeNs>(0, l.call_leave[i] - std::max(l.call_enter[i], latest_gate[row(g)]));
      ReplayGraph::CallCosts& costs = rows.call_costs[row(g)];
      costs = {ReplayGraph::short_cost(segment), ReplayGraph::short_cost(own)};
      if (costs.segment == ReplayGraph::kLongCost) rows.long_segments.emplace_back(g, segment);
      if (costs.own == ReplayGraph::kLongCost) rows.long_own_costs.emplace_back(g, own);
    }
  }
  return rows;
}

namespace {

// The parts' `field` one after another. Each part's is freed once copied, so that no more than
// one part's is held twice (appending to the first part's would hold all of them twice while
// it grows); a single part's is taken whole.
template <class T>
std::vector<T> concatenate(std::vector<GraphRows>& parts, std::vector<T> GraphRows::*field) {
  if (parts.size() == 1) return std::move(parts[0].*field);
  std::size_t total = 0;
  for (const GraphRows& part : parts) total += (part.*field).size();
  std::vector<T> out;
  out.reserve(total);
  for (GraphRows& part : parts) {
    out.insert(out.end(), (part.*field).begin(), (part.*field).end());
    std::vector<T>().swap(part.*field);
  }
  return out;
}

// The parts' gate_first, each part's offset by the gates of the parts before.
std::vector<std::uint32_t> concatenate_gate_first(std::vector<GraphRows>& parts) {
  if (parts.size() == 1) return std::move(parts[0].gate_first);
  std::size_t rows = 0;
  for (const GraphRows& part : parts) rows += part.calls();
  std::vector<std::uint32_t> out{0};
  out.reserve(rows + 1);
  for (GraphRows& part : parts) {
    const std::uint32_t offset = out.back();
    for (std::size_t r = 1; r < part.gate_first.size(); ++r)
      out.push_back(offset + part.gate_first[r]);
    std::vector<std::uint32_t>().swap(part.gate_first);
  }
  return out;
}

// Each collective instance's member calls in position order, into graph.member_first and
// graph.member_calls. Each part's members are in (instance, position) order, but an instance's
// members may come from several parts: they are placed part by part, each part's freed once
// placed, and an instance whose positions are then out of order is sorted (stably, as the
// parts are in location order).
void place_members(ReplayGraph& graph, std::size_t instances, std::vector<GraphRows>& parts) {
  graph.member_first.assign(instances + 1, 0);
  for (const GraphRows& part : parts)
    for (const GraphRows::Member& m : part.members) ++graph.member_first[m.instance + 1];
  for (std::size_t i = 0; i < instances; ++i) graph.member_first[i + 1] += graph.member_first[i];
  graph.member_calls.resize(graph.member_first.back());
  std::vector<std::uint32_t> position(parts.size() > 1 ? graph.member_calls.size() : 0);
  std::vector<std::uint32_t> fill(graph.member_first.begin(), graph.member_first.end() - 1);
  for (GraphRows& part : parts) {
    for (const GraphRows::Member& m : part.members) {
      const std::uint32_t k = fill[m.instance]++;
      graph.member_calls[k] = m.call;
      if (!position.empty()) position[k] = m.position;
    }
    std::vector<GraphRows::Member>().swap(part.members);
  }
  if (position.empty()) return;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> instance;  // (position, call)
  for (std::size_t i = 0; i < instances; ++i) {
    const std::uint32_t first = graph.member_first[i], end = graph.member_first[i + 1];
    if (std::is_sorted(position.begin() + first, position.begin() + end)) continue;
    instance.clear();
    for (std::uint32_t k = first; k < end; ++k)
      instance.emplace_back(position[k], graph.member_calls[k]);
    std::stable_sort(instance.begin(), instance.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::uint32_t k = first; k < end; ++k) graph.member_calls[k] = instance[k - first].second;
  }
}

}  // namespace

ReplayGraph assemble_replay_graph(const WholeTraceFacts& facts, std::vector<GraphRows> parts) {
  ReplayGraph graph;
  graph.begin = facts.begin;
  graph.loc_first_call = facts.loc_first_call;
  const std::uint32_t total = graph.loc_first_call.back();
  graph.call_loc.resize(total);
  for (std::uint32_t loc = 0; loc + 1 < graph.loc_first_call.size(); ++loc)
    std::fill(graph.call_loc.begin() + graph.loc_first_call[loc],
              graph.call_loc.begin() + graph.loc_first_call[loc + 1], loc);
  if (parts.empty()) {
    graph.gate_first.assign(1, 0);
    graph.member_first.assign(facts.instances() + 1, 0);
    return graph;
  }
  place_members(graph, facts.instances(), parts);
  graph.gate_first = concatenate_gate_first(parts);
  graph.gates = concatenate(parts, &GraphRows::gates);
  graph.call_costs = concatenate(parts, &GraphRows::call_costs);
  graph.long_segments = concatenate(parts, &GraphRows::long_segments);
  graph.long_own_costs = concatenate(parts, &GraphRows::long_own_costs);
  return graph;
}

}  // namespace collwrap
