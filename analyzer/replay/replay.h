// Forward replay: recomputes every call's Enter and Leave from the compute segments and the
// dependencies of the matched trace (replay_graph.h).
//
// Each location runs its calls in order. A call is entered when the compute segment before it
// is over (its recorded length, times a factor for what-if questions). It is left when its
// gates are open (the latest Enter it depends on) plus its own cost. That cost is, as recorded,
// what the call took beyond its latest dependency (the transfer and the library's work), and 0
// on an ideal network: there every message and collective takes no time, as in the POP
// definition of transfer efficiency (OTF-CPT replays the same way).
//
// So a replay moves the calls but keeps every compute segment's recorded length
// (ReplayGraph::segment), except those it scales: what reads the segments of a replay without
// scaled segments reads them from the graph, in call order, not from the replayed times.
#pragma once

#include <span>
#include <vector>

#include "replay_graph.h"

namespace collwrap {

enum class NetworkModel : std::uint8_t { AsRecorded, Ideal };

// A factor on the compute segment before a call (global id).
struct ScaledSegment {
  std::uint32_t call = 0;
  float factor = 1.0f;
  // The segment of `length` ns scaled, rounded to the nearest ns: what a replay enters.
  TimeNs of(TimeNs length) const {
    return static_cast<TimeNs>(static_cast<double>(length) * static_cast<double>(factor) + 0.5);
  }
};

struct ReplayOptions {
  NetworkModel network = NetworkModel::AsRecorded;
  // The segments whose length changes, by call in increasing order; every other keeps its
  // recorded length. A list rather than a factor per call: a what-if question changes few
  // segments, and each replaying thread would hold a table of all calls.
  std::span<const ScaledSegment> scaled_segments;
};

struct ReplayTimes {
  std::vector<TimeNs> enter;  // by global call id
  // The call whose Enter a call waited for, or kNone when it did not wait.
  std::vector<std::uint32_t> waited_for;
  TimeNs end = 0;                  // latest Leave
  std::uint64_t broken_gates = 0;  // dependencies ignored to resolve a cycle (damaged traces)
  // Set by the replay: its graph, for the calls' own costs, and whether its network has them.
  const ReplayGraph* graph = nullptr;
  bool own_costs = true;

  // Leave of call g: the Enter it waited for (its own when it did not wait) plus its own cost,
  // as the replay computed it. Derived, not kept: 8 bytes per call less in every replay.
  TimeNs leave(std::uint32_t g) const {
    const std::uint32_t w = waited_for[g];
    return enter[w == kNone ? g : w] + (own_costs ? graph->own_cost(g) : 0);
  }

  // Time call g spent waiting for another location.
  TimeNs wait(std::uint32_t g) const {
    return waited_for[g] == kNone ? 0 : enter[waited_for[g]] - enter[g];
  }
};

// The order in which a replay processed the calls of a graph (or of one slice of it). Which call
// a replay can process next depends on the graph alone, never on the times, so the order is
// the same for every replay of the graph: read backwards, it takes each call after every call
// that read its Enter or its Leave (slice_end_function.h). About a byte per call on traces
// where the ranks wait for each other at nearly every call, less where a location runs many
// calls in a row.
struct ReplaySchedule {
  // A gate the replay ignored to resolve a cycle of closed gates (damaged traces): the
  // gate_index-th of call's gates.
  struct Broken {
    std::uint32_t call = 0, gate_index = 0;
  };
  // Runs of calls of one location, in the order they were processed: (count << loc_bits) |
  // location; a longer run is split.
  unsigned loc_bits = 0;
  std::vector<std::uint32_t> runs;
  std::vector<Broken> broken;  // in the order they were broken
  std::uint64_t calls = 0;     // processed in all

  // An empty schedule for `locations` locations.
  void reset(std::size_t locations);
  // The next `count` calls of `loc` were processed.
  void add_run(std::uint32_t loc, std::uint32_t count) {
    const std::uint32_t most = (std::uint32_t{1} << (32 - loc_bits)) - 1;
    calls += count;
    for (; count > most; count -= most) runs.push_back((most << loc_bits) | loc);
    runs.push_back((count << loc_bits) | loc);
  }
  std::uint32_t location(std::uint32_t run) const {
    return run & ((std::uint32_t{1} << loc_bits) - 1);
  }
  std::uint32_t count(std::uint32_t run) const { return run >> loc_bits; }
};

ReplayTimes replay_trace(const ReplayGraph& graph, const ReplayOptions& options = {});

// The replay as recorded and the one on an ideal network, without scaled segments, in one pass:
// they share the work of finding the next call (the larger part of a replay's cost), so that
// on one thread the two take little more than one.
void replay_recorded_and_ideal(const ReplayGraph& graph, ReplayTimes& recorded, ReplayTimes& ideal);

// Same as replay_trace, reusing the buffers of `times`.
void replay_into(const ReplayGraph& graph, const ReplayOptions& options, ReplayTimes& times);

// The most replays replay_ends runs in one pass. Every lane's Enters are kept (8 bytes per
// call), so lanes cost memory as threads do; two are where the shared work saves the most for
// the memory they take.
inline constexpr std::size_t kReplayLanes = 2;

// The ends (latest Leaves) of up to kReplayLanes replays as recorded with changed segments, for
// what-if questions, which ask for nothing else. They run in one pass, one lane each: which
// call a replay can process next depends on the graph alone, never on the times, so the lanes
// share the work of finding it (the larger part of a replay's cost) and differ only in the
// arithmetic. scaled[i] is lane i's list of changed segments (by call), ends[i] its end. Only
// the Enters are kept, lane i's in enter[i] (reused between calls). A table per lane rather
// than one of both lanes side by side: each is the size of the tables freed before the what-if
// questions (8 bytes per call), whose memory it can take again.
void replay_ends(const ReplayGraph& graph, std::span<const std::span<const ScaledSegment>> scaled,
                 std::span<TimeNs> ends, std::span<std::vector<TimeNs>> enter);

}  // namespace collwrap
