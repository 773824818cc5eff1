// Delay costs: short-term costs land on the segment that made the wait, long-term costs on the
// segment whose delay propagated through other ranks, and every wait second is accounted for.
#include "delay_costs.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "replay_slices.h"
#include "root_causes.h"
#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

struct Analysed {
  TracedRun run;
  SegmentTypes types;
  ReplayTimes times;
  DelayCosts costs;
  explicit Analysed(Trace t)
      : run(std::move(t)),
        types(segment_types(run.trace, run.graph)),
        times(replay_trace(run.graph)),
        costs(delay_costs(run.trace, run.graph, types, times)) {}
  double sum(const std::vector<double>& v) const {
    double s = 0;
    for (double x : v) s += x;
    return s;
  }
};

TEST(DelayCosts, ChainPutsTheLongTermCostOnTheFirstRank) {
  const Analysed a(delay_chain());
  const std::uint32_t rank0 = a.run.graph.global(0, 1);  // the 400 ns before rank 0's send
  EXPECT_DOUBLE_EQ(a.costs.short_term[rank0], 300);      // rank 1's wait
  EXPECT_DOUBLE_EQ(a.costs.long_term[rank0], 310);       // rank 2's wait, through rank 1
  // Rank 1's own compute made nobody wait: its excess over rank 2 is its waiting.
  EXPECT_DOUBLE_EQ(a.costs.short_term[a.run.graph.global(1, 1)], 0);
  EXPECT_DOUBLE_EQ(a.costs.long_term[a.run.graph.global(1, 2)], 0);
  // The third wait is rank 0's 10 in MPI_Finalize: ranks 1 and 2 arrive later by rank 1's
  // forwarding MPI_Send, which is MPI time, not compute (see the conservation test).
  EXPECT_EQ(a.costs.waits, 3u);
}

TEST(DelayCosts, ConservationEveryWaitSecondIsAttributedOrResidual) {
  // Every wait in the collective runs has excess compute behind it. In the chain, rank 0's 10 in
  // MPI_Finalize has none: ranks 1 and 2 arrive later than rank 0 by the 10 of rank 1's
  // forwarding MPI_Send, which no compute segment explains.
  const std::vector<std::pair<Trace, double>> runs = {
      {delay_chain(), 10},
      {imbalance_before_allreduce({100, 250, 100, 400}), 0},
      {imbalance_before_allreduce({100, 100, 100, 100}), 0}};
  for (const auto& [trace, residual] : runs) {
    const Analysed a(trace);
    const double attributed = a.sum(a.costs.short_term) + a.sum(a.costs.long_term);
    EXPECT_NEAR(attributed + a.costs.residual, a.costs.total_wait, 1e-6);
    EXPECT_NEAR(a.costs.residual, residual, 1e-6);
  }
}

TEST(DelayCosts, CollectiveWaitGoesToTheSlowestRanksExcess) {
  // Ranks 0, 1, 2 wait 300, 300 and 150 for rank 3.
  const Analysed a(imbalance_before_allreduce({100, 100, 250, 400}));
  EXPECT_DOUBLE_EQ(a.costs.total_wait, 750);
  EXPECT_DOUBLE_EQ(a.costs.short_term[a.run.graph.global(3, 1)], 750);
  EXPECT_DOUBLE_EQ(a.costs.short_term[a.run.graph.global(2, 1)], 0);
}

TEST(DelayCosts, WaitWithoutExcessIsResidual) {
  // Both ranks compute 50 before the barrier; rank 0 is late because its MPI_Init took longer.
  TraceBuilder b(2);
  b.call(0, "MPI_Init", 0, 50, "t.c", 1);
  b.collective(b.call(0, "MPI_Barrier", 100, 110, "t.c", 5), CollOp::Barrier);
  b.call(1, "MPI_Init", 0, 10, "t.c", 1);
  b.collective(b.call(1, "MPI_Barrier", 60, 110, "t.c", 5), CollOp::Barrier);
  const Analysed a(b.finish());
  EXPECT_DOUBLE_EQ(a.costs.total_wait, 40);
  EXPECT_DOUBLE_EQ(a.costs.residual, 40);
  EXPECT_DOUBLE_EQ(a.sum(a.costs.short_term), 0);
}

TEST(RootCauses, RanksTheSlowRanksSegmentWithItsGain) {
  const TracedRun run(imbalance_before_allreduce({100, 100, 100, 400}));
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  ASSERT_FALSE(c.root_causes.empty());
  const RootCause& top = c.root_causes.front();
  EXPECT_EQ(top.rank, 3);
  EXPECT_EQ(top.segment.line, 10u);
  EXPECT_EQ(top.segment.mpi_function, "MPI_Allreduce");
  EXPECT_NEAR(top.short_term_cost_s, 900e-9, 1e-15);
  ASSERT_TRUE(top.gain_s);
  EXPECT_NEAR(*top.gain_s, 300e-9, 1e-15);  // cut from 400 to the others' 100
  EXPECT_NEAR(c.delay.residual_s, 0, 1e-15);
  EXPECT_NEAR(c.critical_path.length_s, c.replay_runtime_s, 1e-15);
}

// Prepared in one place and run in another, as the analyzer does with the trace's details
// freed in between (release_details_for_root_causes): the analysis keeps its options, which
// its caller's may not outlive, and needs neither the matching nor the op details to run.
RootCauseAnalysis prepare_one_cause(TracedRun& run) {
  CauseOptions options;
  options.estimated_causes = 1;
  options.top_segments = 1;
  release_details_for_root_causes(run.trace, run.matching, RootCauseStage::BeforePreparing);
  RootCauseAnalysis analysis(run.trace, run.matching, options);
  release_details_for_root_causes(run.trace, run.matching, RootCauseStage::AfterPreparing);
  return analysis;
}

TEST(RootCauses, APreparedAnalysisRunsOnItsOwnOptionsWithoutTheDetails) {
  const TracedRun whole(imbalance_before_allreduce({100, 100, 250, 400}));
  CauseOptions one;
  one.estimated_causes = 1;
  one.top_segments = 1;
  const CauseAnalysis expected = find_root_causes(whole.trace, whole.matching, one);
  TracedRun run(imbalance_before_allreduce({100, 100, 250, 400}));
  RootCauseAnalysis prepared = prepare_one_cause(run);
  const std::vector<CauseOptions> overwritten(8);  // reuses the memory the options were in
  const CauseAnalysis c = prepared.run();
  ASSERT_EQ(c.root_causes.size(), 1u);
  EXPECT_EQ(c.root_causes[0].rank, expected.root_causes.at(0).rank);
  EXPECT_EQ(c.root_causes[0].gain_s, expected.root_causes[0].gain_s);
  EXPECT_EQ(c.critical_path.segments.size(), 1u);
  EXPECT_EQ(c.critical_path.length_s, expected.critical_path.length_s);
  EXPECT_EQ(c.delay.total_wait_s, expected.delay.total_wait_s);
  EXPECT_EQ(c.pop.parallel_efficiency, expected.pop.parallel_efficiency);
  EXPECT_TRUE(run.trace.locations[0].op_time_offset.empty());
}

TEST(RootCauses, ChainReportsTheFirstRankWithItsLongTermCostAndGain) {
  const TracedRun run(delay_chain());
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  ASSERT_EQ(c.root_causes.size(), 1u);
  EXPECT_EQ(c.root_causes[0].rank, 0);
  EXPECT_NEAR(c.root_causes[0].short_term_cost_s, 300e-9, 1e-15);
  EXPECT_NEAR(c.root_causes[0].long_term_cost_s, 310e-9, 1e-15);
  // Rank 1's segment before the same MPI_Send line is empty: cut to it, rank 0 sends at 10 and
  // nobody waits; the run ends at 145 instead of 445.
  ASSERT_TRUE(c.root_causes[0].gain_s);
  EXPECT_NEAR(*c.root_causes[0].gain_s, 300e-9, 1e-15);
}

TEST(RootCauses, ChainNamesTheWaitsItCausesDirectlyAndThroughRankOne) {
  const TracedRun run(delay_chain());
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  ASSERT_EQ(c.root_causes.size(), 1u);
  const std::vector<CausedWait>& waits = c.root_causes[0].caused_waits;
  ASSERT_EQ(waits.size(), 2u);
  // Rank 2's wait (310, all propagated through rank 1) is larger than rank 1's own (300).
  EXPECT_EQ(waits[0].rank, 2);
  EXPECT_EQ(waits[0].line, 10u);
  EXPECT_NEAR(waits[0].short_term_cost_s, 0, 1e-15);
  EXPECT_NEAR(waits[0].long_term_cost_s, 310e-9, 1e-15);
  EXPECT_EQ(waits[1].rank, 1);
  EXPECT_EQ(waits[1].file, "sync.c");
  EXPECT_EQ(waits[1].line, 10u);
  EXPECT_NEAR(waits[1].short_term_cost_s, 300e-9, 1e-15);
  EXPECT_NEAR(waits[1].long_term_cost_s, 0, 1e-15);
}

TEST(RootCauses, CodeOnlyOneRankRunsIsCutByItsExcessOverTheCausedWait) {
  // Rank 0 computes 400 before the only MPI_Send (t.c:5); rank 1 computes 100 before its
  // MPI_Recv (t.c:6) and waits 300. No other rank runs rank 0's segment, so the estimate cuts
  // it by the wait it caused, to 100: rank 0 sends at 100, the receive ends at 120 instead of
  // 420.
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 400, 410, "t.c", 5), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 100, 420, "t.c", 6), 0, 0, 8);
  const TracedRun run(b.finish());
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  ASSERT_EQ(c.root_causes.size(), 1u);
  const RootCause& cause = c.root_causes[0];
  EXPECT_EQ(cause.rank, 0);
  EXPECT_EQ(cause.gain_basis, GainBasis::LargestWait);
  EXPECT_NEAR(cause.others_mean_time_s, 0, 1e-15);
  EXPECT_NEAR(cause.target_time_s, 100e-9, 1e-15);
  ASSERT_TRUE(cause.gain_s);
  EXPECT_NEAR(*cause.gain_s, 300e-9, 1e-15);
}

TEST(RootCauses, SharedCodeIsCutToTheOtherRanksMean) {
  const TracedRun run(imbalance_before_allreduce({100, 100, 100, 400}));
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  ASSERT_FALSE(c.root_causes.empty());
  EXPECT_EQ(c.root_causes[0].gain_basis, GainBasis::OthersMean);
  EXPECT_NEAR(c.root_causes[0].others_mean_time_s, 100e-9, 1e-15);
  EXPECT_NEAR(c.root_causes[0].target_time_s, 100e-9, 1e-15);
}

TEST(RootCauses, ALoadThatMovesAcrossRanksIsOneImbalanceBalancedToTheRanksMean) {
  // Each round one rank is 300 late, a different one each time: each rank's own segment costs
  // 900 (three ranks wait 300 once), and cutting it to the other ranks' mean (their total is
  // the same) gains nothing. Balanced, every round's segment takes the mean of its instance,
  // (400 + 3 x 100) / 4 = 175 instead of 400: the run ends 4 x 225 = 900 earlier.
  const TracedRun run(moving_imbalance());
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  ASSERT_FALSE(c.root_causes.empty());
  const RootCause& top = c.root_causes.front();
  EXPECT_EQ(top.gain_basis, GainBasis::RanksMean);
  EXPECT_EQ(top.segment.line, 10u);
  EXPECT_EQ(top.occurrences, 16u);  // 4 rounds on 4 ranks
  EXPECT_NEAR(top.short_term_cost_s, 4 * 900e-9, 1e-15);
  EXPECT_NEAR(top.segment_time_s, 700e-9, 1e-15);  // rank 0: 400 + 3 x 100
  EXPECT_NEAR(top.target_time_s, 700e-9, 1e-15);   // 4 x 175
  ASSERT_TRUE(top.gain_s);
  EXPECT_NEAR(*top.gain_s, 900e-9, 1e-12);
  ASSERT_FALSE(top.caused_waits.empty());  // over all ranks
  for (const RootCause& r : c.root_causes) {
    if (r.gain_basis != GainBasis::RanksMean && r.gain_s) {
      EXPECT_NEAR(*r.gain_s, 0, 1e-12);
    }
  }
}

TEST(RootCauses, OneRankThatDominatesTheCostIsNoImbalance) {
  const TracedRun run(imbalance_before_allreduce({100, 100, 250, 400}));
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, {});
  for (const RootCause& r : c.root_causes) EXPECT_NE(r.gain_basis, GainBasis::RanksMean);
}

TEST(DelayCosts, LargestChargeIsTheLargestWaitASegmentCaused) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 400, 410, "t.c", 5), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 100, 420, "t.c", 6), 0, 0, 8);
  const TracedRun run(b.finish());
  const ReplayTimes t = replay_trace(run.graph);
  const DelayCosts costs =
      delay_costs(run.trace, run.graph, segment_types(run.trace, run.graph), t);
  EXPECT_FLOAT_EQ(costs.largest_charge[run.graph.global(0, 0)], 300.0f);
  EXPECT_FLOAT_EQ(costs.largest_charge[run.graph.global(1, 0)], 0.0f);  // the waiter's
}

// Attributed slice of time by slice of time, from the last to the first, each from only what
// the slices after it hand back, the waits cost the same, to the bit, on any number of slices:
// the processes of a divided analysis will each attribute one slice.
TEST(DelayCosts, InSlicesOfTimeTheCostsAreTheSameToTheBit) {
  std::vector<Trace> traces;
  traces.push_back(neighbours_and_collectives());
  traces.push_back(delay_chain());
  traces.push_back(moving_imbalance());
  bool passed_on = false;  // waiting passed on from wait to wait, in some trace
  for (Trace& trace : traces) {
    const Analysed a(std::move(trace));
    passed_on |= a.sum(a.costs.long_term) > 0;
    ASSERT_GT(a.costs.waits, 2u);
    for (std::size_t slices = 1; slices <= 7; ++slices) {
      SCOPED_TRACE(std::to_string(slices) + " slices");
      const SliceCuts cuts = cut_at_replayed_leaves(a.run.graph, a.times, slices);
      const DelayCosts sliced =
          delay_costs_in_slices(a.run.trace, a.run.graph, a.types, a.times, cuts);
      expect_same_delay_costs(sliced, a.costs);
    }
  }
  EXPECT_TRUE(passed_on);
}

// On more threads, the waits are attributed in the same order from the same intervals, found
// side by side: the costs are the same to the bit. The run has more waits than the chunks in
// flight between the threads hold, and waiting passed on from wait to wait.
TEST(DelayCosts, OnAnyNumberOfThreadsTheCostsAreTheSameToTheBit) {
  const Analysed a(neighbours_and_collectives(12000));
  ASSERT_GT(a.costs.waits, 8u * 4096u);  // kChunksInFlight chunks of kChunkWaits
  ASSERT_GT(a.sum(a.costs.long_term), 0);
  for (const unsigned threads : {2u, 3u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    expect_same_delay_costs(delay_costs(a.run.trace, a.run.graph, a.types, a.times, {}, threads),
                            a.costs);
    // So are a job's slices, each attributed on the threads of its process.
    for (const std::size_t slices : {2u, 3u}) {
      SCOPED_TRACE(std::to_string(slices) + " slices");
      const SliceCuts cuts = cut_at_replayed_leaves(a.run.graph, a.times, slices);
      expect_same_delay_costs(
          delay_costs_in_slices(a.run.trace, a.run.graph, a.types, a.times, cuts, {}, threads),
          a.costs);
    }
  }
}

// A slice may read its waits' synchronization intervals ahead of their turn, before it takes
// over what the slices after it hand back (a job's process does while the processes after it
// attribute theirs): as many as its budget of bytes holds, or as it plans before the handover
// comes. Its costs are the same to the bit, however many it planned.
TEST(DelayCosts, WaitsPlannedAheadCostTheSameToTheBit) {
  const Analysed a(neighbours_and_collectives(12000));
  ASSERT_GT(a.costs.waits, 8u * 4096u);
  ASSERT_GT(a.sum(a.costs.long_term), 0);
  const SliceCuts whole = cut_at_replayed_leaves(a.run.graph, a.times, 1);
  const auto all = [](std::uint32_t) { return true; };
  // One slice, the whole run: how many waits each budget and handover plans.
  const auto planned = [&](std::size_t most_bytes, std::size_t rounds) {
    DelaySlice part(
        delay_window(a.run.trace, a.run.graph, a.types, a.times, DelayWindowRuns(whole), 0),
        a.types.types());
    std::size_t round = 0;
    part.plan_ahead(all, most_bytes, [&] { return round++ == rounds; });
    const std::size_t n = part.planned_ahead();
    part.attribute(all);
    expect_same_delay_costs(part.costs(), a.costs);
    return n;
  };
  EXPECT_EQ(planned(std::size_t{1} << 30, 1000), a.costs.waits);  // every wait
  EXPECT_EQ(planned(std::size_t{1} << 30, 2), 2048u);             // two rounds before the handover
  EXPECT_EQ(planned(std::size_t{1} << 30, 0), 0u);                // the handover was there already
  const std::size_t budgeted = planned(8192, 1000);
  EXPECT_GT(budgeted, 0u);
  EXPECT_LE(budgeted, 8192u / 2 / (sizeof(std::uint32_t) + 40));
  // The slices of a job, each on the threads of its process.
  for (const PlanAhead ahead : {PlanAhead{std::size_t{1} << 30, 1000}, PlanAhead{8192, 1000},
                                PlanAhead{std::size_t{1} << 30, 1}})
    for (const std::size_t slices : {2u, 3u})
      for (const unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(std::to_string(slices) + " slices, " + std::to_string(threads) + " threads, " +
                     std::to_string(ahead.most_bytes) + " bytes, " + std::to_string(ahead.rounds) +
                     " rounds");
        const SliceCuts cuts = cut_at_replayed_leaves(a.run.graph, a.times, slices);
        expect_same_delay_costs(delay_costs_in_slices(a.run.trace, a.run.graph, a.types, a.times,
                                                      cuts, {}, threads, ahead),
                                a.costs);
      }
}

// A slice whose window lacks the calls back to its waits' synchronization intervals says so
// rather than attributing from the wrong calls.
TEST(DelayCosts, AWindowWithoutTheCallsAWaitReadsIsRefused) {
  const Analysed a(delay_chain());
  const std::size_t slices = 3;
  const SliceCuts cuts = cut_at_replayed_leaves(a.run.graph, a.times, slices);
  const std::vector<std::uint32_t> slice = slice_of_calls(a.run.graph, cuts);
  bool refused = false;
  for (std::size_t s = 1; s < slices; ++s) {
    // The slice's own runs of calls only, none of the calls its waits read before them.
    DelaySlice part(
        delay_window(a.run.trace, a.run.graph, a.types, a.times, DelayWindowRuns(cuts), s),
        a.types.types());
    try {
      part.attribute([&](std::uint32_t g) { return slice[g] == s; });
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("outside the window"), std::string::npos);
      refused = true;
    }
  }
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace collwrap::testing
