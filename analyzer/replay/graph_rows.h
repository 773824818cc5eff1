// The replay graph (replay_graph.h) in rows: what one holder of some locations' calls knows of
// their part of the graph, with global call and instance ids, so that the processes of a
// divided analysis, none of which holds the whole trace, can each make the rows of their own
// locations from their partial trace (its ghosts included) and matching, and whoever replays a
// part of the run can put its graph together from the rows it receives. The analyzer alone
// makes the rows of every location at once: build_replay_graph is assemble_replay_graph of one
// part, so that the two ways cannot drift apart.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "replay_graph.h"

namespace collwrap {

// What the rows of some locations need to know of the whole trace: the global numbering of
// calls and collective instances, and the latest Enter of MPI_Init and of MPI_Finalize (the
// two instances after the matched ones, which span every rank). A job's processes agree on it
// (each location's call count, each communicator's largest instance count, the latest
// Enters); alone, whole_trace_facts gives it.
struct WholeTraceFacts {
  TimeNs begin = 0;                                // the trace's start
  std::vector<std::uint32_t> loc_first_call;       // locations + 1 entries
  std::vector<std::uint32_t> comm_first_instance;  // communicators + 1 entries
  TimeNs latest_init_enter = kNoTime, latest_finalize_enter = kNoTime;

  static constexpr TimeNs kNoTime = INT64_MIN;
  // The location of global call g.
  std::uint32_t location_of(std::uint32_t g) const {
    return static_cast<std::uint32_t>(
        std::upper_bound(loc_first_call.begin(), loc_first_call.end(), g) - loc_first_call.begin() -
        1);
  }
  std::uint32_t init_instance() const { return comm_first_instance.back(); }
  std::uint32_t finalize_instance() const { return init_instance() + 1; }
  std::uint32_t instances() const { return init_instance() + 2; }
};

// The parts of WholeTraceFacts each holder knows of its own locations: its locations' call
// counts (of the others, 0), the instances its matching has of each communicator (the n-th
// instance of a communicator is its n-th collective on every member, so the whole trace has
// the largest count of any holder's), and the latest Enter of MPI_Init and MPI_Finalize among
// its locations. Facts of several holders are merged with merge_facts.
struct HolderFacts {
  TimeNs begin = 0;
  std::vector<std::uint32_t> calls;      // by location
  std::vector<std::uint32_t> instances;  // by communicator
  TimeNs latest_init_enter = WholeTraceFacts::kNoTime;
  TimeNs latest_finalize_enter = WholeTraceFacts::kNoTime;
};
HolderFacts holder_facts(const Trace& trace, const Matching& matching, const LocationRange& held);
// Adds `part` into `sum`: call counts added (each location has one holder), the instance counts
// and latest Enters maximized.
void merge_facts(HolderFacts& sum, const HolderFacts& part);
WholeTraceFacts whole_trace_facts(const HolderFacts& all);
// The facts of a whole trace and its matching.
WholeTraceFacts whole_trace_facts(const Trace& trace, const Matching& matching);

// The rows of the calls of some consecutive locations, in global call order from `first_call`.
struct GraphRows {
  std::uint32_t first_call = 0;
  std::vector<ReplayGraph::CallCosts> call_costs;
  std::vector<std::pair<std::uint32_t, TimeNs>> long_segments, long_own_costs;  // global ids
  // Gates of the i-th row: gates[gate_first[i] .. gate_first[i + 1]), global ids, in
  // ascending order (call gates before collective gates), so that the order in which a
  // call's gates were found, which differs between holders, cannot break a replay's ties
  // differently.
  std::vector<std::uint32_t> gate_first{0};
  std::vector<std::uint32_t> gates;
  // The rows' calls whose Enter counts for a collective instance (replay_graph.h), by
  // (instance, position): the member's rank in the communicator, or for MPI_Init and
  // MPI_Finalize its location. `call` is kNone for a member without a call.
  struct Member {
    std::uint32_t instance = 0, position = 0, call = kNone;
    // By instance, then position: the order of an instance's members in the graph.
    bool operator<(const Member& o) const {
      return instance != o.instance ? instance < o.instance : position < o.position;
    }
  };
  std::vector<Member> members;
  // By row, the type of the compute segment that ends at the call (the root-cause analysis's
  // compute_segments.h), when the maker of the rows gives them; else empty.
  std::vector<std::uint32_t> segment_type;

  std::size_t calls() const { return call_costs.size(); }
  // The compute segment before global call g, one of the rows' (ReplayGraph::segment).
  TimeNs segment(std::uint32_t g) const {
    const std::uint32_t segment = call_costs[g - first_call].segment;
    return segment != ReplayGraph::kLongCost ? segment : ReplayGraph::long_cost(long_segments, g);
  }
};

// The rows of the `rows_of` locations of `trace` (whole, or a process's partial trace whose
// other locations hold ghosts), from its matching. `origin_call`, by location: each call's
// index on the original location, for the ghosts (PartialTrace::origin_call); empty, or empty
// for a location, where calls are numbered as in the trace. A gate on a collective instance
// whose other members are digested (collective_digest.h) reads the digest: the latest Enter,
// and the root's call for a one-to-N instance.
GraphRows graph_rows(const Trace& trace, const Matching& matching, const WholeTraceFacts& facts,
                     const LocationRange& rows_of,
                     std::span<const std::vector<std::uint32_t>> origin_call = {});

// The replay graph of the rows of every location, `parts` in location order.
ReplayGraph assemble_replay_graph(const WholeTraceFacts& facts, std::vector<GraphRows> parts);

}  // namespace collwrap
