// The delay costs of a divided analysis in slices of time, one per process (sliced_delay.h),
// played out in one process after the sliced replay (played_job.h): the holders learn the
// replay of their calls, cut the run again at the replayed Leaves, find their waits'
// synchronization intervals (asking each other for the delayers'), send each slice's process
// the rows of its window, and the slices attribute their waits from the last to the first.
// Every call's costs, the sums and the charges must be the analyzer alone's, to the bit, on
// every division of the traces.
#include "sliced_delay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "played_job.h"
#include "synthetic_runs.h"

namespace collwrap {
namespace {

// `whole`: the whole trace's replay as recorded, against which the job's cuts are checked.
DelayCosts play_delay_costs(PlayedJob& job, const SegmentTypes& types, const ReplayTimes& whole,
                            const DelayOptions& options) {
  const std::size_t processes = job.shares.size();
  const WholeTraceFacts& facts = job.facts;
  const std::vector<PartialTrace>& parts = job.divided->parts;
  // The segment types of each holder's calls, as the job numbers them.
  for (GraphRows& rows : job.rows)
    rows.segment_type.assign(types.type_of_call.begin() + rows.first_call,
                             types.type_of_call.begin() + rows.first_call + rows.calls());

  // 1. The waits the replay found, to the holders.
  std::vector<HeldReplay> held;
  for (std::size_t p = 0; p < processes; ++p) held.emplace_back(job.shares[p]);
  for (std::size_t s = 0; s < processes; ++s)
    for (std::size_t p = 0; p < processes; ++p) {
      const std::vector<ReplayedWait> waits =
          replayed_waits_for_holder(job.slices[s], job.shares[p]);
      EXPECT_EQ(replayed_wait_count_for_holder(job.slices[s], job.shares[p]), waits.size());
      held[p].add(waits);
    }
  for (HeldReplay& h : held) h.finish();

  // 2. The delay analysis's slices, at the replayed Leaves.
  std::vector<TimeNs> samples;
  for (const ReplaySlice& slice : job.slices)
    for (const TimeNs t : replayed_leave_samples(slice, 8)) samples.push_back(t);
  const std::vector<TimeNs> instants = cut_instants(samples, processes);
  SliceCuts cuts;
  for (const ReplaySlice& slice : job.slices)
    merge_least_cuts(cuts, cut_replayed_slice(slice, facts, instants));
  // The cuts are where the whole replay's Leaves pass the instants.
  SliceCuts expected_cuts{cuts.locations, std::vector<std::uint32_t>(cuts.first.size())};
  for (std::uint32_t loc = 0; loc < cuts.locations; ++loc)
    cut_location(expected_cuts, loc, facts.loc_first_call[loc], facts.loc_first_call[loc + 1],
                 instants, [&](std::uint32_t g) { return whole.leave(g); });
  EXPECT_EQ(cuts.first, expected_cuts.first);
  const SliceIndex index(facts, cuts);

  // 3. The synchronization intervals: asked[p][q], process p's questions to process q.
  std::vector<std::vector<std::vector<DelayerQuestion>>> asked;
  for (std::size_t p = 0; p < processes; ++p) {
    waiter_intervals(held[p], parts[p].trace, facts, options);
    asked.push_back(delayer_questions(held[p], parts[p].trace, facts, job.shares));
  }
  for (std::size_t p = 0; p < processes; ++p) {
    std::vector<std::vector<std::uint32_t>> answers;
    for (std::size_t q = 0; q < processes; ++q)
      answers.push_back(answer_delayer_questions(asked[p][q], parts[q].trace, facts, options));
    take_delayer_answers(held[p], facts, job.shares, answers);
  }

  // 4. Each slice's window, its rows from every holder.
  DelayWindowRuns runs(cuts);
  for (std::size_t p = 0; p < processes; ++p) {
    DelayWindowRuns mine(cuts);
    need_calls(mine, held[p], index);
    runs.merge(mine);
  }
  std::vector<DelayWindow> windows;
  for (std::size_t s = 0; s < processes; ++s) {
    // Each holder's waits after those of the holders before.
    std::vector<std::size_t> first_wait{0};
    for (std::size_t p = 0; p < processes; ++p)
      first_wait.push_back(first_wait.back() + delay_wait_count_for_slice(held[p], facts, runs, s));
    windows.push_back(empty_delay_window(runs, s, first_wait.back()));
    for (std::size_t p = 0; p < processes; ++p)
      place_delay_rows(held_rows(windows.back(), job.shares[p], first_wait[p],
                                 first_wait[p + 1] - first_wait[p]),
                       delay_rows_for_slice(held[p], job.rows[p], parts[p].trace, facts, runs, s));
  }

  // 5. From the last slice to the first.
  return attribute_slices_in_turn(
      processes, facts.loc_first_call.back(), types.types(),
      [&](std::size_t s) { return std::move(windows[s]); },
      [&](std::uint32_t g) { return index.slice_of(g); },
      [&](std::uint32_t g) { return index.entered_in(g); });
}

void expect_job_costs_as_whole(const Trace& whole, const std::vector<LocationRange>& shares,
                               const DelayOptions& options) {
  SCOPED_TRACE(std::to_string(shares.size()) + " processes, intervals of at most " +
               std::to_string(options.max_interval_calls) + " calls");
  const Matching matching = match_trace(whole, 1);
  const ReplayGraph graph = build_replay_graph(whole, matching);
  const SegmentTypes types = segment_types(whole, graph);
  const ReplayTimes recorded = replay_trace(graph);
  const DelayCosts expected = delay_costs(whole, graph, types, recorded, options);
  PlayedJob job = play_job(whole, shares, Digests::Made, {});
  ASSERT_FALSE(job.refused);
  const DelayCosts costs = play_delay_costs(job, types, recorded, options);
  testing::expect_same_delay_costs(costs, expected);
}

TEST(SlicedDelay, EveryProcessesSliceCostsAsTheWholeTrace) {
  for (const Trace& whole : sliced_test_traces())
    for (const std::uint32_t interval : {4096u, 2u})
      for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
        expect_job_costs_as_whole(whole, split_locations(events_per_location(whole), processes),
                                  {.max_interval_calls = interval});
}

// A wait and a compute segment of 4.3 s or more, which the window keeps beside its short ones,
// cost as alone.
TEST(SlicedDelay, AWaitOfSecondsCostsAsTheWholeTrace) {
  const Trace whole = testing::imbalance_before_allreduce({6'000'000'000, 100, 5'000'000'000, 200});
  for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
    expect_job_costs_as_whole(whole, split_locations(events_per_location(whole), processes), {});
}

// The slices' waits arrive slice by slice, each in call order but interleaved with the
// others' on every location; a holder's are in call order once all are in, whatever the number
// of slices (the odd one of a round of merges waits for the next round).
TEST(SlicedDelay, AHoldersWaitsFromEverySliceComeOutInCallOrder) {
  for (std::size_t slices = 0; slices <= 5; ++slices) {
    HeldReplay held(LocationRange{0, 2});
    std::vector<std::uint32_t> expected;
    for (std::size_t s = 0; s < slices; ++s) {
      std::vector<ReplayedWait> waits;
      for (std::uint32_t loc = 0; loc < 2; ++loc)
        for (std::uint32_t i = 0; i < 3; ++i) {
          const auto call = static_cast<std::uint32_t>(loc * 1000 + s * 10 + i);
          waits.push_back({call, call + 1, TimeNs(call), TimeNs(2 * call)});
          expected.push_back(call);
        }
      held.add(waits);
    }
    held.finish();
    std::sort(expected.begin(), expected.end());
    std::vector<std::uint32_t> calls;
    for (const DelayWait& w : held.waits()) {
      calls.push_back(w.call);
      EXPECT_EQ(w.waited_for, w.call + 1);
      EXPECT_EQ(w.leave, 2 * TimeNs(w.call));
    }
    EXPECT_EQ(calls, expected) << slices << " slices";
  }
}

}  // namespace
}  // namespace collwrap
