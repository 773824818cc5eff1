// The replays of a divided analysis in slices of time, one slice per process (sliced_replay.h),
// played out in one process: every process makes its rows, the cuts, the rows each slice's
// process receives, the handovers planned from the last slice to the first, the segments
// handed from the first to the last, and the replay slice after slice. Every call's replayed
// Enter, and whom it waited for, must be the whole replay's, as recorded and on an ideal
// network, on every division of the traces; a cut the clock condition does not allow must be
// refused where the whole graph refuses it.
#include "sliced_replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <vector>

#include "divided_trace.h"
#include "played_job.h"
#include "slice_end_function.h"
#include "synthetic_runs.h"
#include "trace_builder.h"

namespace collwrap {
namespace {

void expect_job_replays_as_whole(const Trace& whole, const std::vector<LocationRange>& shares,
                                 Digests digests) {
  SCOPED_TRACE(std::to_string(shares.size()) + " processes, collectives " +
               (digests == Digests::Made ? "digested" : "as ghosts"));
  const Matching matching = match_trace(whole, 1);
  const ReplayGraph graph = build_replay_graph(whole, matching);
  for (const NetworkModel network : {NetworkModel::AsRecorded, NetworkModel::Ideal}) {
    const ReplayOptions options{network, {}};
    const PlayedJob job = play_job(whole, shares, digests, options);
    EXPECT_EQ(job.refused, !replays_slice_by_slice(graph, job.cuts));
    if (job.refused) continue;
    // Each slice's graph is the one cut from the whole graph, handed calls and their segments
    // included.
    for (std::size_t s = 0; s < job.slices.size(); ++s) {
      const SliceGraph cut = cut_slice_graph(graph, job.cuts, s, job.handed[s]);
      const SliceGraph& part = job.slices[s].part;
      EXPECT_EQ(part.global, cut.global);
      EXPECT_EQ(part.from, cut.from);
      EXPECT_EQ(part.to, cut.to);
      EXPECT_EQ(part.graph.gates, cut.graph.gates);
      EXPECT_EQ(part.graph.member_calls, cut.graph.member_calls);
      ASSERT_EQ(part.global.size(), cut.global.size());
      for (std::uint32_t c = 0; c < cut.global.size(); ++c) {
        ASSERT_EQ(part.graph.segment(c), cut.graph.segment(c)) << "slice " << s << " call " << c;
        ASSERT_EQ(part.graph.own_cost(c), cut.graph.own_cost(c)) << "slice " << s << " call " << c;
      }
    }
    const ReplayTimes expected = replay_trace(graph, options);
    std::size_t replayed = 0;
    TimeNs end = graph.begin;
    for (const ReplaySlice& slice : job.slices) {
      const SliceGraph& part = slice.part;
      end = std::max(end, slice.times.end);
      for (std::uint32_t loc = 0; loc < job.cuts.locations; ++loc)
        for (std::uint32_t c = part.from[loc]; c < part.to[loc]; ++c, ++replayed) {
          const std::uint32_t g = part.global[c], waited = slice.times.waited_for[c];
          ASSERT_EQ(slice.times.enter[c], expected.enter[g]) << "call " << g;
          ASSERT_EQ(waited == kNone ? kNone : part.global[waited], expected.waited_for[g])
              << "call " << g;
        }
    }
    EXPECT_EQ(replayed, graph.calls());
    EXPECT_EQ(end, expected.end);
  }
}

// Calls visit(whole, job) for each test trace divided among `first` processes and more, up to
// one per location, played with digests; divisions whose cut the clock condition refuses are
// skipped.
template <typename Visit>
void for_each_replayable_division(unsigned first, Visit&& visit) {
  for (const Trace& whole : sliced_test_traces())
    for (unsigned processes = first; processes <= whole.locations.size(); ++processes) {
      SCOPED_TRACE(std::to_string(processes) + " processes");
      const PlayedJob job = play_job(whole, split_locations(events_per_location(whole), processes),
                                     Digests::Made, {});
      if (!job.refused) visit(whole, job);
    }
}

TEST(SlicedReplay, EveryProcessesSliceReplaysAsTheWholeTrace) {
  for (const Trace& whole : sliced_test_traces())
    for (const Digests digests : {Digests::Made, Digests::None})
      for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
        expect_job_replays_as_whole(whole, split_locations(events_per_location(whole), processes),
                                    digests);
}

// What-if questions' replays keep only the Enters and the end (replay_slice_ends), one or two
// in a pass: slice after slice, with segments scaled, each lane's Enters, ends and handovers
// are its full replay's, and its latest end is the whole trace's replay's. Each slice's end
// found backwards before the Enters are handed in (slice_end_function.h) is the one replayed.
TEST(SlicedReplay, ReplaysForTheirEndsAloneAreTheFullReplaysWithoutWhomCallsWaitedFor) {
  for_each_replayable_division(1, [](const Trace& whole, const PlayedJob& job) {
    const Matching matching = match_trace(whole, 1);
    const ReplayGraph graph = build_replay_graph(whole, matching);
    // Lane 0: every third segment halved, one removed; lane 1: every other one doubled.
    std::array<std::vector<ScaledSegment>, 2> scaled;
    for (std::uint32_t g = 0; g < graph.calls(); g += 3)
      scaled[0].push_back({g, g == 3 ? 0 : 0.5f});
    for (std::uint32_t g = 1; g < graph.calls(); g += 2) scaled[1].push_back({g, 2.0f});
    for (const std::size_t lanes : {1, 2}) {
      SCOPED_TRACE(std::to_string(lanes) + " lanes");
      std::array<SliceHandover, 2> full_in, end_in;
      std::array<TimeNs, 2> latest{graph.begin, graph.begin};
      std::array<std::vector<TimeNs>, 2> enter;
      const std::array<std::span<const ScaledSegment>, 2> lists{scaled[0], scaled[1]};
      for (std::size_t s = 0; s < job.slices.size(); ++s) {
        const SliceGraph& part = job.slices[s].part;
        // The ends found backwards, before the Enters are handed in, in the order of a replay
        // as recorded of the slice.
        ReplaySchedule schedule;
        ReplayTimes recorded;
        replay_slice(part, recorded, {}, end_in[0], job.handed[s + 1], &schedule);
        const std::vector<SliceEndFunction> end_of =
            slice_end_functions(part, schedule, std::span(lists).first(lanes), job.handed[s]);
        ASSERT_EQ(end_of.size(), lanes);
        std::array<TimeNs, 2> ends{};
        const std::vector<SliceHandover> handed =
            replay_slice_ends(part, std::span(lists).first(lanes), std::span(end_in).first(lanes),
                              job.handed[s + 1], std::span(ends).first(lanes), enter);
        ASSERT_EQ(handed.size(), lanes);
        for (std::size_t lane = 0; lane < lanes; ++lane) {
          EXPECT_EQ(end_of[lane](end_in[lane]), ends[lane]) << "slice " << s << ", lane " << lane;
          ReplayTimes full;
          full_in[lane] = replay_slice(part, full, {NetworkModel::AsRecorded, scaled[lane]},
                                       full_in[lane], job.handed[s + 1]);
          EXPECT_EQ(enter[lane], full.enter) << "slice " << s << ", lane " << lane;
          EXPECT_EQ(ends[lane], full.end) << "slice " << s << ", lane " << lane;
          EXPECT_EQ(handed[lane], full_in[lane]) << "slice " << s << ", lane " << lane;
          end_in[lane] = handed[lane];
          latest[lane] = std::max(latest[lane], ends[lane]);
        }
      }
      for (std::size_t lane = 0; lane < lanes; ++lane)
        EXPECT_EQ(latest[lane], replay_trace(graph, {NetworkModel::AsRecorded, scaled[lane]}).end);
    }
  });
}

// A job's processes replay their slices as recorded at once, from the recorded Enters of the
// calls they are handed (the replay as recorded gives the recorded times where the clock
// condition holds), and again, into the same tables, where the slice before hands over other
// Enters. Either way each slice's times are the whole replay's. The recorded Enters are what
// is handed over on most divisions of the test traces (some of which break the clock condition
// on purpose): both ways are taken.
TEST(SlicedReplay, ASliceReplayedAsRecordedFromItsCallsRecordedEntersStandsOrIsMadeAgain) {
  std::size_t guesses = 0, right = 0;
  for_each_replayable_division(2, [&](const Trace& whole, const PlayedJob& job) {
    const ReplayGraph graph = build_replay_graph(whole, match_trace(whole, 1));
    const ReplayTimes expected = replay_trace(graph, {});
    const auto recorded_enter = [&](std::uint32_t g) {
      const auto loc = static_cast<std::uint32_t>(
          std::upper_bound(graph.loc_first_call.begin(), graph.loc_first_call.end(), g) -
          graph.loc_first_call.begin() - 1);
      return whole.locations[loc].call_enter[g - graph.loc_first_call[loc]];
    };
    SliceHandover handed;
    for (std::size_t s = 0; s < job.slices.size(); ++s) {
      const SliceGraph& part = job.slices[s].part;
      SliceHandover guess, wrong;
      for (const std::uint32_t g : job.handed[s]) {
        guess.emplace_back(g, recorded_enter(g));
        wrong.emplace_back(g, recorded_enter(g) - 1000);
      }
      ReplayTimes times;
      replay_slice(part, times, {}, wrong, job.handed[s + 1]);
      if (s > 0) {
        ++guesses;
        right += guess == handed;
      }
      handed = replay_slice(part, times, {}, handed, job.handed[s + 1]);
      for (std::uint32_t loc = 0; loc < job.cuts.locations; ++loc)
        for (std::uint32_t c = part.from[loc]; c < part.to[loc]; ++c) {
          const std::uint32_t waited = times.waited_for[c];
          ASSERT_EQ(times.enter[c], expected.enter[part.global[c]]) << "slice " << s;
          ASSERT_EQ(waited == kNone ? kNone : part.global[waited],
                    expected.waited_for[part.global[c]])
              << "slice " << s;
        }
    }
  });
  EXPECT_GT(right, 0u);
  EXPECT_LT(right, guesses);
}

// The calls of a location a slice enters, as a range, are those whose entered_in is that slice:
// on every division of the traces, and where instants leave slices empty on some locations
// (two instants at the same time; one before any Leave, one after every Leave).
void expect_entered_calls_as_entered_in(const WholeTraceFacts& facts, const SliceCuts& cuts) {
  const SliceIndex index(facts, cuts);
  for (std::uint32_t loc = 0; loc < cuts.locations; ++loc)
    for (std::uint32_t s = 0; s < cuts.slices(); ++s) {
      const auto [first, end] = index.entered_calls(s, loc);
      for (std::uint32_t g = facts.loc_first_call[loc]; g < facts.loc_first_call[loc + 1]; ++g)
        ASSERT_EQ(index.entered_in(g) == s, g >= first && g < end)
            << "location " << loc << " slice " << s << " call " << g;
    }
}

TEST(SlicedReplay, TheCallsASliceEntersAreThoseItsIndexSaysItEnters) {
  std::size_t checked = 0;
  for (const Trace& whole : sliced_test_traces()) {
    const std::vector<TimeNs> none_before{0}, twice_at{whole.begin + 50, whole.begin + 50},
        none_after{std::numeric_limits<TimeNs>::max() / 2};
    for (unsigned processes = 1; processes <= whole.locations.size(); ++processes) {
      const PlayedJob job = play_job(whole, split_locations(events_per_location(whole), processes),
                                     Digests::None, {});
      expect_entered_calls_as_entered_in(job.facts, job.cuts);
      ++checked;
    }
    for (const std::vector<TimeNs>* instants : {&none_before, &twice_at, &none_after}) {
      const auto shares = split_locations(events_per_location(whole), instants->size() + 1);
      if (shares.size() != instants->size() + 1) continue;
      const PlayedJob job = play_job(whole, shares, Digests::None, {}, instants);
      expect_entered_calls_as_entered_in(job.facts, job.cuts);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10u);
}

// A message sent in the first slice and received in the third: its send's Enter, and its
// compute segment, go through the second slice's process.
// The index finds a call's location from its block of calls: the same location as a search of
// every location's first call, with empty locations anywhere, locations shorter and longer
// than a block, and a location that ends at a block's edge.
TEST(SlicedReplay, TheIndexFindsEveryCallsLocationAsTheFactsDo) {
  WholeTraceFacts facts;
  facts.loc_first_call = {0, 0, 3, 4096, 4096, 4097, 20000, 20000, 20001, 40960, 40960};
  // One slice: row 0 the locations' first calls, row 1 their ends.
  SliceCuts cuts{facts.loc_first_call.size() - 1, {}};
  cuts.first.assign(facts.loc_first_call.begin(), facts.loc_first_call.end() - 1);
  cuts.first.insert(cuts.first.end(), facts.loc_first_call.begin() + 1, facts.loc_first_call.end());
  const SliceIndex index(facts, cuts);
  for (std::uint32_t g = 0; g <= 40960 + 5000; ++g)
    ASSERT_EQ(index.location_of(g), facts.location_of(g)) << "call " << g;
}

TEST(SlicedReplay, AMessageInFlightAcrossTwoCutsIsHandedOnTwice) {
  TraceBuilder b(3);
  for (int r = 0; r < 3; ++r) b.call(r, "MPI_Init", 0, 10, "v.c", 1);
  b.send(b.call(0, "MPI_Send", 20, 30, "v.c", 2), 2, 0, 8);
  for (int r = 0; r < 3; ++r) b.call(r, "MPI_Comm_rank", 400 + r, 410 + r, "v.c", 3);
  b.recv(b.call(2, "MPI_Recv", 1000, 1010, "v.c", 4), 0, 0, 8);
  for (int r = 0; r < 3; ++r) b.call(r, "MPI_Finalize", 1100, 1110, "v.c", 5);
  const Trace whole = b.finish();
  const std::vector<LocationRange> shares{{0, 1}, {1, 2}, {2, 3}};
  const std::vector<TimeNs> instants{300, 600};
  for (const Digests digests : {Digests::Made, Digests::None}) {
    const PlayedJob job = play_job(whole, shares, digests, {}, &instants);
    ASSERT_FALSE(job.refused);
    const std::uint32_t send = job.facts.loc_first_call[0] + 1;
    for (const std::size_t s : {1, 2}) {
      EXPECT_NE(std::find(job.handed[s].begin(), job.handed[s].end(), send), job.handed[s].end());
      const SliceGraph& part = job.slices[s].part;
      EXPECT_EQ(part.graph.segment(part.local(send)), 10);  // from MPI_Init's Leave to the Send
    }
  }
}

// Rank 1 enters a barrier after rank 0 has left it, with a call between (a clock-condition
// violation): cut between rank 0's barrier and rank 1's call before the barrier, rank 1's
// barrier is entered in the second slice while rank 0's, in the first, waits for it.
TEST(SlicedReplay, ACutAcrossAClockConditionViolationIsRefused) {
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Init", 0, 10, "v.c", 1);
  b.collective(b.call(0, "MPI_Barrier", 20, 30, "v.c", 2), CollOp::Barrier);
  b.call(1, "MPI_Comm_rank", 90, 95, "v.c", 3);
  b.collective(b.call(1, "MPI_Barrier", 100, 110, "v.c", 2), CollOp::Barrier);
  for (int r = 0; r < 2; ++r) b.call(r, "MPI_Finalize", 120, 130, "v.c", 5);
  const Trace whole = b.finish();
  const std::vector<LocationRange> shares{{0, 1}, {1, 2}};
  const ReplayGraph graph = build_replay_graph(whole, match_trace(whole, 1));
  for (const Digests digests : {Digests::Made, Digests::None}) {
    const std::vector<TimeNs> across{50}, after{200};
    const PlayedJob refused = play_job(whole, shares, digests, {}, &across);
    EXPECT_TRUE(refused.refused);
    EXPECT_FALSE(replays_slice_by_slice(graph, refused.cuts));
    EXPECT_FALSE(play_job(whole, shares, digests, {}, &after).refused);
  }
}

}  // namespace
}  // namespace collwrap
