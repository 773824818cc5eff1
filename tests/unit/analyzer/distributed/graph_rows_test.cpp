// The replay graph in rows (graph_rows.h): each process of a job makes the rows of its own
// locations from its partial trace and matching; put together, they must be the whole trace's
// replay graph, field by field, for every way of dividing the locations, with the collectives
// digested (as a job analyzes) and with their members as ghosts (as it does for the clock
// repair).
#include "graph_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "divided_trace.h"
#include "synthetic_runs.h"
#include "trace_builder.h"

namespace collwrap {
namespace {

std::vector<std::pair<std::uint32_t, std::uint32_t>> costs(const ReplayGraph& g) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const ReplayGraph::CallCosts& c : g.call_costs) out.emplace_back(c.segment, c.own);
  return out;
}

void expect_same_graph(const ReplayGraph& graph, const ReplayGraph& expected) {
  EXPECT_EQ(graph.begin, expected.begin);
  EXPECT_EQ(graph.loc_first_call, expected.loc_first_call);
  EXPECT_EQ(graph.call_loc, expected.call_loc);
  EXPECT_EQ(graph.gate_first, expected.gate_first);
  EXPECT_EQ(graph.gates, expected.gates);
  EXPECT_EQ(graph.member_first, expected.member_first);
  EXPECT_EQ(graph.member_calls, expected.member_calls);
  EXPECT_EQ(costs(graph), costs(expected));
  EXPECT_EQ(graph.long_segments, expected.long_segments);
  EXPECT_EQ(graph.long_own_costs, expected.long_own_costs);
}

void expect_same_facts(const WholeTraceFacts& facts, const WholeTraceFacts& expected) {
  EXPECT_EQ(facts.begin, expected.begin);
  EXPECT_EQ(facts.loc_first_call, expected.loc_first_call);
  EXPECT_EQ(facts.comm_first_instance, expected.comm_first_instance);
  EXPECT_EQ(facts.latest_init_enter, expected.latest_init_enter);
  EXPECT_EQ(facts.latest_finalize_enter, expected.latest_finalize_enter);
}

// Whether the graph has a gate on a call (`collective` false) or on a collective instance.
bool has_gate_of_kind(const ReplayGraph& g, bool collective) {
  return std::any_of(g.gates.begin(), g.gates.end(), [&](std::uint32_t gate) {
    return static_cast<bool>(gate & kCollectiveGate) == collective;
  });
}

void expect_rows_make_the_whole_graph(const Trace& whole, const std::vector<LocationRange>& shares,
                                      Digests digests) {
  SCOPED_TRACE(std::to_string(shares.size()) + " processes, collectives " +
               (digests == Digests::Made ? "digested" : "as ghosts"));
  const Matching matching = match_trace(whole, 1);
  const ReplayGraph expected = build_replay_graph(whole, matching);
  const DividedTrace divided = divide(whole, shares, digests);

  // The facts as the job agrees on them, from what each process knows.
  HolderFacts all;
  for (std::size_t p = 0; p < shares.size(); ++p)
    merge_facts(all,
                holder_facts(divided.parts[p].trace, divided.matchings[p], divided.parts[p].held));
  const WholeTraceFacts facts = whole_trace_facts(all);
  expect_same_facts(facts, whole_trace_facts(whole, matching));

  std::vector<GraphRows> rows;
  for (std::size_t p = 0; p < shares.size(); ++p) {
    const PartialTrace& part = divided.parts[p];
    rows.push_back(
        graph_rows(part.trace, divided.matchings[p], facts, part.held, part.origin_call));
    EXPECT_EQ(rows.back().first_call, facts.loc_first_call[shares[p].first]);
    EXPECT_EQ(rows.back().calls(),
              facts.loc_first_call[shares[p].end] - facts.loc_first_call[shares[p].first]);
  }
  expect_same_graph(assemble_replay_graph(facts, std::move(rows)), expected);
}

TEST(GraphRows, FromEveryDivisionTheyMakeTheWholeTracesGraph) {
  bool collective_gates = false;
  for (const Trace& whole : divided_test_traces()) {
    const ReplayGraph graph = build_replay_graph(whole, match_trace(whole, 1));
    ASSERT_TRUE(has_gate_of_kind(graph, false));
    collective_gates |= has_gate_of_kind(graph, true);
    for (const Digests digests : {Digests::Made, Digests::None}) {
      for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
        expect_rows_make_the_whole_graph(
            whole, split_locations(events_per_location(whole), processes), digests);
      if (whole.locations.size() == 8)  // rank 1's threads held apart
        expect_rows_make_the_whole_graph(whole, {{0, 3}, {3, 5}, {5, 8}}, digests);
    }
  }
  EXPECT_TRUE(collective_gates);
}

// Collectives over a communicator whose ranks run against the world's (as MPI_Comm_split with
// descending keys makes): rows made by shares of the locations in world order give each
// instance's members in descending positions, which the graph must hold ascending.
Trace reversed_communicator_trace() {
  TraceBuilder b(4);
  const std::uint32_t reversed = b.comm({3, 2, 1, 0}, "reversed");
  for (int r = 0; r < 4; ++r) b.call(r, "MPI_Init", 0, 10, "r.c", 1);
  for (int r = 0; r < 4; ++r)
    b.collective(b.call(r, "MPI_Barrier", 20 + 5 * r, 100, "r.c", 2), CollOp::Barrier, reversed);
  for (int r = 0; r < 4; ++r)
    b.collective(b.call(r, "MPI_Bcast", 110 + r, 200, "r.c", 3), CollOp::Bcast, reversed, 0);
  for (int r = 0; r < 4; ++r) b.call(r, "MPI_Finalize", 300, 310, "r.c", 4);
  return b.finish();
}

TEST(GraphRows, AReversedCommunicatorsMembersAreInItsRankOrder) {
  const Trace whole = reversed_communicator_trace();
  const Matching matching = match_trace(whole, 1);
  const ReplayGraph one = build_replay_graph(whole, matching, 1);
  const WholeTraceFacts facts = whole_trace_facts(whole, matching);
  // The barrier's members: world ranks 3, 2, 1, 0 (their first calls after MPI_Init).
  std::vector<std::uint32_t> expected;
  for (const std::uint32_t loc : {3u, 2u, 1u, 0u})
    expected.push_back(facts.loc_first_call[loc] + 1);
  bool found = false;
  for (std::uint32_t i = 0; i < facts.instances(); ++i) {
    const auto members = one.members_of(i);
    found |= std::vector<std::uint32_t>(members.begin(), members.end()) == expected;
  }
  EXPECT_TRUE(found);
  for (const unsigned threads : {2u, 4u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    expect_same_graph(build_replay_graph(whole, matching, threads), one);
  }
  for (const Digests digests : {Digests::Made, Digests::None})
    for (unsigned processes = 2; processes <= 4; ++processes)
      expect_rows_make_the_whole_graph(
          whole, split_locations(events_per_location(whole), processes), digests);
}

// With several threads, each making the rows of a share of the locations, the graph is the one
// a single thread makes: on the divided analysis's traces and the root-cause runs, among them
// a segment of 5 s (kept apart from the 32-bit costs).
TEST(GraphRows, ThreadsMakeTheGraphOneThreadMakes) {
  std::vector<Trace> traces = divided_test_traces();
  traces.push_back(testing::imbalance_before_allreduce({5'000'000'000, 100, 300, 100}));
  traces.push_back(testing::neighbours_and_collectives());
  for (const Trace& whole : traces) {
    const Matching matching = match_trace(whole, 1);
    const ReplayGraph one = build_replay_graph(whole, matching, 1);
    ASSERT_GT(one.calls(), 0u);
    for (const unsigned threads : {2u, 3u, 16u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      expect_same_graph(build_replay_graph(whole, matching, threads), one);
    }
  }
}

// The runs the root-cause analysis is tested on: every rank in MPI_Init and MPI_Finalize (the
// two instances whose latest Enter the processes agree on), neighbours' receives completed
// together by one MPI_Waitall (several gates on a call), broadcasts, and a segment of 5 s (kept
// apart from the 32-bit costs).
TEST(GraphRows, TheRootCauseTestRunsDividedMakeTheirWholeGraphs) {
  // Rank 0, on the first process, enters MPI_Init last.
  Trace late_init = testing::delay_chain();
  ASSERT_EQ(late_init.regions[late_init.locations[0].call_region[0]].cls, RegionClass::Init);
  late_init.locations[0].call_enter[0] = 5;
  const std::vector<Trace> runs{late_init,
                                testing::imbalance_before_allreduce({5'000'000'000, 100, 300, 100}),
                                testing::moving_imbalance(), testing::neighbours_and_collectives()};
  bool long_segments = false, init_and_finalize = false;
  for (const Trace& whole : runs) {
    const Matching matching = match_trace(whole, 1);
    const ReplayGraph graph = build_replay_graph(whole, matching);
    const WholeTraceFacts facts = whole_trace_facts(whole, matching);
    long_segments |= !graph.long_segments.empty();
    init_and_finalize |= !graph.members_of(facts.init_instance()).empty() &&
                         !graph.members_of(facts.finalize_instance()).empty();
    for (const Digests digests : {Digests::Made, Digests::None})
      for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
        expect_rows_make_the_whole_graph(
            whole, split_locations(events_per_location(whole), processes), digests);
  }
  EXPECT_TRUE(long_segments);
  EXPECT_TRUE(init_and_finalize);
}

// A one-to-N collective whose root another process holds, digested: its members wait for the
// root's call, which only the digest names.
TEST(GraphRows, ADigestedBroadcastWaitsForTheRootsCall) {
  const Trace whole = digested_collectives_trace();
  const Matching matching = match_trace(whole, 1);
  const ReplayGraph expected = build_replay_graph(whole, matching);
  std::size_t root_gates = 0;
  for (const CollectiveInstance& c : matching.collectives)
    if (c.family == CollFamily::OneToN && c.complete) root_gates += c.member_count - 1;
  ASSERT_GT(root_gates, 0u);
  const std::vector<LocationRange> apart = split_locations(events_per_location(whole), 4);
  const DividedTrace divided = divide(whole, apart, Digests::Made);
  ASSERT_TRUE(divided.digests);
  const WholeTraceFacts facts = whole_trace_facts(whole, matching);
  std::size_t gates = 0;
  for (std::size_t p = 0; p < apart.size(); ++p)
    gates += graph_rows(divided.parts[p].trace, divided.matchings[p], facts, apart[p],
                        divided.parts[p].origin_call)
                 .gates.size();
  EXPECT_EQ(gates, expected.gates.size());
}

}  // namespace
}  // namespace collwrap
