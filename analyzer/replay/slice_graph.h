// The part of a replay graph that one slice of time needs (replay_slices.h), renumbered, as the
// process that replays the slice holds it: location by location the slice's calls and then the
// location's next call (which the slice enters but does not leave), then the calls entered by
// earlier slices whose Enters are handed over to it, and the collective instances its calls
// wait for. A slice's graph is about as large as the slice; built here from the whole graph,
// it is what a divided analysis's processes will build from the rows their holders send.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "call_runs.h"
#include "graph_rows.h"
#include "replay_graph.h"

namespace collwrap {

struct SliceCuts;

struct SliceGraph {
  // Local call ids; the trace's locations; the handed-over calls after the last location's
  // calls, outside every location (their call_loc is the location count), neither entered nor
  // left here: of them the graph holds only the segment lengths.
  ReplayGraph graph;
  std::vector<std::uint32_t> global;    // by local call: its global id
  std::vector<std::uint32_t> from, to;  // by location, local ids: the calls the slice leaves
  // By local call, the type of the compute segment before it, when the rows gave them.
  std::vector<std::uint32_t> segment_type;
  // The locations' calls by their global ids (the handed-over ones, after them, ascending).
  CallRuns runs;

  // The local id of a global call, or kNone when the slice does not hold it.
  std::uint32_t local(std::uint32_t global_call) const;
};

// What the process of slice s holds to build the slice's graph: of each location, the rows of
// the slice's calls and of the next call (GraphRows from cuts.row(s)[loc]); the calls whose
// Enters the slices before hand over, with their compute segments; and the members of every
// collective instance the slice's calls wait for.
// A call whose Enter an earlier slice hands over: the compute segment before it and that
// segment's type (kNone when the rows give none).
struct HandedCall {
  std::uint32_t call = 0;  // global id
  std::uint32_t segment_type = kNone;
  TimeNs segment = 0;
};

struct SliceRows {
  TimeNs begin = 0;  // the trace's start
  std::vector<GraphRows> locations;
  std::vector<HandedCall> handed;          // by call
  std::vector<GraphRows::Member> members;  // by (instance, position)
};

// The graph of slice s from its rows. A gate or member the rows do not hold (on a cut that
// replays_slice_by_slice refuses) is left out.
SliceGraph slice_graph_from_rows(const SliceCuts& cuts, std::size_t s, SliceRows rows);

// Slice s's rows as the whole graph has them.
SliceRows slice_rows(const ReplayGraph& whole, const SliceCuts& cuts, std::size_t s,
                     std::span<const std::uint32_t> handed);

// Slice s of `whole` as cut by `cuts`; `handed` (global ids) are the calls whose Enters the
// slices before hand it. A gate or member the slice does not hold (on a cut that
// replays_slice_by_slice refuses) is left out.
SliceGraph cut_slice_graph(const ReplayGraph& whole, const SliceCuts& cuts, std::size_t s,
                           std::span<const std::uint32_t> handed);

}  // namespace collwrap
