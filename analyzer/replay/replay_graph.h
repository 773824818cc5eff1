// Which calls must wait for which: the dependencies of a matched trace, flat, for the replay.
//
// Every MPI call of the trace gets a global id (its location's first id + its index there).
// A call's "gates" are what it cannot leave before: the Enter of another call (the send of a
// message it receives; the receive posting of a synchronous send it completes; the root's call
// of a one-to-all collective) or the last Enter among the members of a collective instance
// (barriers, all-to-all collectives, the root of all-to-one ones). Scan and Exscan are treated
// like all-to-all; communicator creation has no gate. Standard-mode sends are taken as eager.
// MPI_Init and MPI_Finalize are instances too (the last two): the replayed ranks start
// together, so that the spread of their launch times does not count as waiting in MPI, and end
// together, as MPI_Finalize synchronizes them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "matching.h"
#include "trace_model.h"

namespace collwrap {

// A gate is a global call id, or kCollectiveGate | instance id.
inline constexpr std::uint32_t kCollectiveGate = 0x80000000u;

// All that the replays read of a matched trace: a replay needs nothing else, so that a slice of
// time can be replayed from its own graph (replay_slices.h).
struct ReplayGraph {
  TimeNs begin = 0;                           // the trace's start: every location starts there
  std::vector<std::uint32_t> loc_first_call;  // locations + 1 entries
  std::vector<std::uint32_t> call_loc;        // global call id → location

  // Gates of call g: gates[gate_first[g] .. gate_first[g + 1]).
  std::vector<std::uint32_t> gate_first;
  std::vector<std::uint32_t> gates;

  // Members of collective instance i whose Enter counts (for nonblocking collectives the
  // posting call): member_calls[member_first[i] .. member_first[i + 1]).
  std::vector<std::uint32_t> member_first;
  std::vector<std::uint32_t> member_calls;
  // By global call, what every replay reads of the recorded run, computed once: the length of
  // the compute segment before the call, and its own cost, what it took beyond its latest
  // dependency (the transfer and the library's own work; at least 0). Side by side in 32 bits
  // each, so that a replay reads one array in call order rather than the recorded times of the
  // call, its predecessor and its gates; a length of 2^32 - 1 ns (4.3 s) or more is kept
  // apart (kLongCost, see segment() and own_cost()).
  struct CallCosts {
    std::uint32_t segment = 0;
    std::uint32_t own = 0;
  };
  static constexpr std::uint32_t kLongCost = 0xFFFFFFFFu;
  std::vector<CallCosts> call_costs;
  std::vector<std::pair<std::uint32_t, TimeNs>> long_segments;   // (call, length), by call
  std::vector<std::pair<std::uint32_t, TimeNs>> long_own_costs;  // (call, own cost), by call

  std::size_t calls() const { return call_loc.size(); }
  std::size_t locations() const { return loc_first_call.size() - 1; }
  std::uint32_t global(std::uint32_t loc, std::uint32_t call) const {
    return loc_first_call[loc] + call;
  }
  std::uint32_t local(std::uint32_t g) const { return g - loc_first_call[call_loc[g]]; }
  std::span<const std::uint32_t> gates_of(std::uint32_t g) const {
    return {gates.data() + gate_first[g], gates.data() + gate_first[g + 1]};
  }
  std::size_t instances() const { return member_first.empty() ? 0 : member_first.size() - 1; }
  // Members of instance i, kNone for those without a call.
  std::span<const std::uint32_t> members_of(std::uint32_t i) const {
    return {member_calls.data() + member_first[i], member_calls.data() + member_first[i + 1]};
  }
  // Length of the compute segment that ends at the Enter of call g, as recorded: from the
  // Leave of the previous call on its location (or the start of the trace), at least 0. A
  // replay keeps it but where it scales it (replay.h).
  TimeNs segment(std::uint32_t g) const {
    const std::uint32_t segment = call_costs[g].segment;
    return segment != kLongCost ? segment : long_cost(long_segments, g);
  }
  // Own cost of call g as recorded (see call_costs).
  TimeNs own_cost(std::uint32_t g) const {
    const std::uint32_t own = call_costs[g].own;
    return own != kLongCost ? own : long_cost(long_own_costs, g);
  }
  static TimeNs long_cost(const std::vector<std::pair<std::uint32_t, TimeNs>>& costs,
                          std::uint32_t g);
  // A length in 32 bits: kLongCost for one of 4.3 s or more, or below 0, which its holder keeps
  // apart in a list.
  static std::uint32_t short_cost(TimeNs cost) {
    return cost >= 0 && cost < kLongCost ? static_cast<std::uint32_t>(cost) : kLongCost;
  }
};

// The graph of a whole trace: the rows of all its locations (graph_rows.h), put together. A
// call's gates are in ascending order, so that a replay breaks ties between gates whose Enters
// are equal the same way whoever made the rows. With `threads` > 1 (0: one per core), each
// thread makes the rows of a share of the locations; the graph is the same.
ReplayGraph build_replay_graph(const Trace& trace, const Matching& matching, unsigned threads = 1);

// Recorded Enter / Leave of a global call.
inline TimeNs recorded_enter(const Trace& t, const ReplayGraph& g, std::uint32_t call) {
  return t.locations[g.call_loc[call]].call_enter[g.local(call)];
}
inline TimeNs recorded_leave(const Trace& t, const ReplayGraph& g, std::uint32_t call) {
  return t.locations[g.call_loc[call]].call_leave[g.local(call)];
}

}  // namespace collwrap
