// Compute segments are identified by the call sites around them, the same on every rank.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "critical_path_share.h"
#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

TEST(Segments, SameCallSitesAroundThemGiveTheSameType) {
  const TracedRun run(delay_chain());
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const auto type = [&](std::uint32_t loc, std::uint32_t call) {
    return types.type_of_call[run.graph.global(loc, call)];
  };
  // Before MPI_Init everywhere; Init → Recv on ranks 1 and 2; Init → Send on rank 0 only.
  EXPECT_EQ(type(0, 0), type(1, 0));
  EXPECT_EQ(type(1, 1), type(2, 1));
  EXPECT_NE(type(0, 1), type(1, 1));
  // Recv → Send (rank 1) differs from Init → Send (rank 0): the start counts too.
  EXPECT_NE(type(1, 2), type(0, 1));
  // start→Init, Init→Send, Send→Finalize, Init→Recv, Recv→Send, Recv→Finalize
  EXPECT_EQ(types.types(), 6u);
}

// Each call's type is the one of the ends around its segment, and no two types share both ends:
// also where a type is followed by another than the time before (the typing remembers each
// type's last follower to spare a hash look-up).
TEST(Segments, EachCallHasTheTypeOfTheEndsAroundItsSegment) {
  std::size_t followers_changed = 0;
  for (const Trace& trace : {neighbours_and_collectives(), moving_imbalance(), delay_chain()}) {
    const TracedRun run(trace);
    const SegmentTypes types = segment_types(run.trace, run.graph);
    std::set<std::pair<std::uint32_t, std::uint32_t>> keys;
    for (std::uint32_t t = 0; t < types.types(); ++t)
      EXPECT_TRUE(keys.insert({types.start[t], types.finish[t]}).second) << "type " << t;
    for (std::uint32_t loc = 0; loc < run.trace.locations.size(); ++loc) {
      const Location& l = run.trace.locations[loc];
      std::map<std::uint32_t, std::uint32_t> last_follower;
      for (std::uint32_t i = 0; i < l.calls(); ++i) {
        const std::uint32_t type = types.type_of_call[run.graph.global(loc, i)];
        EXPECT_EQ(types.start[type], i == 0 ? kNone : segment_end_of_call(l, i - 1));
        EXPECT_EQ(types.finish[type], segment_end_of_call(l, i));
        if (i == 0) continue;
        const std::uint32_t before = types.type_of_call[run.graph.global(loc, i - 1)];
        const auto [it, first] = last_follower.try_emplace(before, type);
        followers_changed += !first && it->second != type;
        it->second = type;
      }
    }
  }
  EXPECT_GT(followers_changed, 0u);
}

// Typed on more threads, by shares of the locations merged in order, the segments are numbered
// as on one.
TEST(Segments, OnAnyNumberOfThreadsTheTypesAreTheSame) {
  for (const Trace& trace : {neighbours_and_collectives(), moving_imbalance(), delay_chain()}) {
    const TracedRun run(trace);
    const SegmentTypes one = segment_types(run.trace, run.graph);
    ASSERT_GT(one.types(), 3u);
    for (const unsigned threads : {2u, 3u, 8u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      const SegmentTypes many = segment_types(run.trace, run.graph, threads);
      EXPECT_EQ(many.type_of_call, one.type_of_call);
      EXPECT_EQ(many.start, one.start);
      EXPECT_EQ(many.finish, one.finish);
      EXPECT_EQ(many.start_region, one.start_region);
      EXPECT_EQ(many.finish_region, one.finish_region);
    }
  }
}

// A divided analysis's processes each type their own locations' segments and merge the types in
// location order: the numbers are the whole trace's, on every division.
TEST(Segments, TypedByRangesOfLocationsAndMergedInOrderTheyAreNumberedAsTheWholeTrace) {
  for (const Trace& trace : {neighbours_and_collectives(), moving_imbalance(), delay_chain()}) {
    const TracedRun run(trace);
    const SegmentTypes whole = segment_types(run.trace, run.graph);
    const auto n = static_cast<std::uint32_t>(run.trace.locations.size());
    for (std::uint32_t cut = 1; cut < n; ++cut) {
      SegmentTypes merged;
      std::vector<std::uint32_t> type_of_call;
      for (const LocationRange range : {LocationRange{0, cut}, LocationRange{cut, n}}) {
        const SegmentTypes part = segment_types(run.trace, run.graph.loc_first_call, range);
        const std::vector<std::uint32_t> number = merge_segment_types(merged, part);
        for (const std::uint32_t t : part.type_of_call) type_of_call.push_back(number[t]);
      }
      EXPECT_EQ(type_of_call, whole.type_of_call);
      EXPECT_EQ(merged.start, whole.start);
      EXPECT_EQ(merged.finish, whole.finish);
      EXPECT_EQ(merged.start_region, whole.start_region);
      EXPECT_EQ(merged.finish_region, whole.finish_region);
    }
  }
}

TEST(Segments, AreNamedByTheCallThatEndsThemAndTheOneThatStartsThem) {
  const TracedRun run(delay_chain());
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const SegmentDescription d =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 1)]);
  EXPECT_EQ(d.file, "sync.c");
  EXPECT_EQ(d.line, 20u);
  EXPECT_EQ(d.mpi_function, "MPI_Send");
  EXPECT_EQ(d.start_line, 1u);
  EXPECT_EQ(d.start_mpi_function, "MPI_Init");
  const SegmentDescription first =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 0)]);
  EXPECT_EQ(first.start_mpi_function, "start");
}

TEST(Segments, WithoutACallSiteTheMpiFunctionNamesTheEnd) {
  TraceBuilder b(1);
  b.call(0, "MPI_Init", 0, 10, "", 0);
  b.call(0, "MPI_Barrier", 20, 30, "", 0);
  const TracedRun run(b.finish());
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const SegmentDescription d =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 1)]);
  EXPECT_TRUE(d.file.empty());
  EXPECT_EQ(d.mpi_function, "MPI_Barrier");
  EXPECT_EQ(d.start_mpi_function, "MPI_Init");
}

TEST(Segments, CarryTheCallPathOfTheCallThatEndsThem) {
  Trace trace = delay_chain();
  // As COLLWRAP_CALLSITE_DEPTH=3 records it: sync.c:20 is reached from solve() at
  // solver.c:7, itself called from main() at main.c:3.
  trace.callsites.push_back({"main.c", 3, "main", kNone});
  trace.callsites.push_back({"solver.c", 7, "solve", 0});
  trace.callsites.back().caller = static_cast<std::uint32_t>(trace.callsites.size() - 2);
  const std::uint32_t send_site = trace.locations[0].call_callsite[1];
  trace.callsites[send_site].caller = static_cast<std::uint32_t>(trace.callsites.size() - 1);
  const TracedRun run(std::move(trace));
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const SegmentDescription d =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 1)]);
  ASSERT_EQ(d.call_path.size(), 2u);
  EXPECT_EQ(d.call_path[0].file, "solver.c");
  EXPECT_EQ(d.call_path[0].line, 7u);
  EXPECT_EQ(d.call_path[0].function, "solve");
  EXPECT_EQ(d.call_path[1].line, 3u);
  // One frame per call site: no callers.
  EXPECT_TRUE(describe_segment(run.trace, types, types.type_of_call[run.graph.global(1, 1)])
                  .call_path.empty());
}

TEST(Segments, ACycleOfCallersInADamagedArchiveEndsTheCallPath) {
  Trace trace = delay_chain();
  const std::uint32_t send_site = trace.locations[0].call_callsite[1];
  trace.callsites.push_back({"a.c", 1, "a", send_site});
  trace.callsites[send_site].caller = static_cast<std::uint32_t>(trace.callsites.size() - 1);
  const TracedRun run(std::move(trace));
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const SegmentDescription d =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 1)]);
  EXPECT_EQ(d.call_path.size(), 16u);  // the deepest COLLWRAP_CALLSITE_DEPTH
}

}  // namespace
}  // namespace collwrap::testing
