// POP efficiencies: the arithmetic of LB, CommE = SerE × TE and PE on runs with known values.
#include "pop_efficiency.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

PopEfficiencies pop_of(const TracedRun& run) {
  return pop_efficiencies(run.trace, run.graph, replay_trace(run.graph),
                          replay_trace(run.graph, {NetworkModel::Ideal, {}}));
}

TEST(Pop, BalancedRunIsEfficientExceptForTheTransfer) {
  const TracedRun run(imbalance_before_allreduce({1000, 1000, 1000, 1000}));
  const PopEfficiencies p = pop_of(run);
  EXPECT_DOUBLE_EQ(p.load_balance, 1.0);
  EXPECT_DOUBLE_EQ(p.serialization_efficiency, 1.0);
  // Region: Init's Leave (10) to Finalize's Enter (1020): 1000 useful, 10 in the Allreduce.
  EXPECT_DOUBLE_EQ(p.runtime_s, 1010e-9);
  EXPECT_DOUBLE_EQ(p.transfer_efficiency, 1000.0 / 1010.0);
  EXPECT_DOUBLE_EQ(p.communication_efficiency, p.serialization_efficiency * p.transfer_efficiency);
}

TEST(Pop, OneRankWithTwiceTheWorkGivesLoadBalanceFiveEighths) {
  const TracedRun run(imbalance_before_allreduce({1000, 1000, 1000, 2000}));
  const PopEfficiencies p = pop_of(run);
  EXPECT_DOUBLE_EQ(p.load_balance, 0.625);
  EXPECT_DOUBLE_EQ(p.max_useful_s, 2000e-9);
  EXPECT_DOUBLE_EQ(p.mean_useful_s, 1250e-9);
  EXPECT_DOUBLE_EQ(p.parallel_efficiency, p.load_balance * p.communication_efficiency);
  ASSERT_EQ(p.ranks.size(), 4u);
  EXPECT_DOUBLE_EQ(p.ranks[3].useful_s, 2000e-9);
  EXPECT_DOUBLE_EQ(p.ranks[0].mpi_s, 1010e-9);  // waited 1000 and 10 in the Allreduce
}

TEST(Pop, ChainIsSerializedNotSlowedByTheNetwork) {
  // Each rank works 100 after receiving from the previous one and then sends on.
  TraceBuilder b(4);
  TimeNs t = 10;
  for (int r = 0; r < 4; ++r) {
    b.call(r, "MPI_Init", 0, 10, "c.c", 1);
    if (r > 0) b.recv(b.call(r, "MPI_Recv", 10, t, "c.c", 10), r - 1, 0, 8);
    t += 100;
    if (r < 3) b.send(b.call(r, "MPI_Send", t, t, "c.c", 20), r + 1, 0, 8);
    b.call(r, "MPI_Finalize", t, t + 10, "c.c", 30);
  }
  const TracedRun run(b.finish());
  const PopEfficiencies p = pop_of(run);
  EXPECT_DOUBLE_EQ(p.load_balance, 1.0);
  EXPECT_NEAR(p.serialization_efficiency, 0.25, 1e-12);  // 1/P
  EXPECT_NEAR(p.transfer_efficiency, 1.0, 1e-12);
}

TEST(Pop, LaunchSpreadBeforeMpiInitIsNotSerialization) {
  // Rank 1 starts 40 later; both leave MPI_Init at 50 and compute 100.
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) {
    b.call(r, "MPI_Init", r == 0 ? 0 : 40, 50, "l.c", 1);
    b.collective(b.call(r, "MPI_Allreduce", 150, 160, "l.c", 2), CollOp::Allreduce);
    b.call(r, "MPI_Finalize", 160, 170, "l.c", 3);
  }
  const TracedRun run(b.finish());
  const PopEfficiencies p = pop_of(run);
  EXPECT_DOUBLE_EQ(p.serialization_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(p.transfer_efficiency, 100.0 / 110.0);
}

// Ranks compute `before[r]` outside the region of interest, then MPI_Pcontrol(1), 100 of
// balanced work, an MPI_Allreduce, MPI_Pcontrol(0), then `after[r]`, and a final Allreduce.
Trace pcontrol_run(const std::vector<TimeNs>& before, const std::vector<TimeNs>& after) {
  const int ranks = static_cast<int>(before.size());
  TraceBuilder b(ranks);
  const TimeNs on = 10 + *std::max_element(before.begin(), before.end());
  for (int r = 0; r < ranks; ++r) {
    b.call(r, "MPI_Init", 0, 10, "p.c", 1);
    b.collective(b.call(r, "MPI_Allreduce", 10 + before[r], on, "p.c", 2), CollOp::Allreduce);
    b.pcontrol_level(b.call(r, "MPI_Pcontrol", on, on + 5, "p.c", 3), 1);
    b.collective(b.call(r, "MPI_Allreduce", on + 105, on + 110, "p.c", 4), CollOp::Allreduce);
    b.pcontrol_level(b.call(r, "MPI_Pcontrol", on + 110, on + 115, "p.c", 5), 0);
    const TimeNs end = on + 115 + *std::max_element(after.begin(), after.end());
    b.collective(b.call(r, "MPI_Allreduce", on + 115 + after[r], end, "p.c", 6), CollOp::Allreduce);
    b.call(r, "MPI_Finalize", end, end + 10, "p.c", 7);
  }
  return b.finish();
}

TEST(Pop, PcontrolLimitsTheRegionOfInterest) {
  // Rank 2 computes 3× longer than the others outside the region: it must not count.
  const TracedRun run(pcontrol_run({100, 100, 300, 100}, {50, 50, 50, 200}));
  const PopEfficiencies p = pop_of(run);
  EXPECT_EQ(p.region, "MPI_Pcontrol");
  EXPECT_DOUBLE_EQ(p.load_balance, 1.0);
  EXPECT_DOUBLE_EQ(p.max_useful_s, 100e-9);
  EXPECT_DOUBLE_EQ(p.runtime_s, 105e-9);  // Pcontrol(1)'s Leave to Pcontrol(0)'s Enter
  ASSERT_EQ(p.ranks.size(), 4u);
  EXPECT_DOUBLE_EQ(p.ranks[2].mpi_s, 5e-9);  // the Allreduce inside the region
}

TEST(Pop, WithoutPcontrolTheWholeRunCounts) {
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) {
    b.call(r, "MPI_Init", 0, 10, "p.c", 1);
    b.collective(b.call(r, "MPI_Allreduce", r == 0 ? 110 : 310, 310, "p.c", 2), CollOp::Allreduce);
    b.call(r, "MPI_Finalize", 310, 320, "p.c", 3);
  }
  const TracedRun run(b.finish());
  const PopEfficiencies p = pop_of(run);
  EXPECT_EQ(p.region, "MPI_Init..MPI_Finalize");
  EXPECT_DOUBLE_EQ(p.load_balance, 200.0 / 300.0);
}

TEST(Pop, SeveralPcontrolPhasesAddUp) {
  // Two phases: rank 1 is slow (300 vs 100) in the first, balanced (100) in the second; the
  // imbalance between the phases (rank 0 computes 500 there) is outside the region.
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) {
    b.call(r, "MPI_Init", 0, 10, "p.c", 1);
    b.pcontrol_level(b.call(r, "MPI_Pcontrol", 10, 10, "p.c", 2), 1);
    b.collective(b.call(r, "MPI_Allreduce", r == 0 ? 110 : 310, 310, "p.c", 3), CollOp::Allreduce);
    b.pcontrol_level(b.call(r, "MPI_Pcontrol", 310, 310, "p.c", 4), 0);
    b.collective(b.call(r, "MPI_Allreduce", r == 0 ? 810 : 310, 810, "p.c", 5), CollOp::Allreduce);
    b.pcontrol_level(b.call(r, "MPI_Pcontrol", 810, 810, "p.c", 6), 2);  // any level ≠ 0: on
    b.pcontrol_level(b.call(r, "MPI_Pcontrol", 810, 810, "p.c", 7), 1);  // already on
    b.collective(b.call(r, "MPI_Allreduce", 910, 910, "p.c", 8), CollOp::Allreduce);
    b.call(r, "MPI_Finalize", 910, 920, "p.c", 9);  // still on: the phase ends here
  }
  const TracedRun run(b.finish());
  const PopEfficiencies p = pop_of(run);
  ASSERT_EQ(p.ranks.size(), 2u);
  EXPECT_DOUBLE_EQ(p.ranks[0].useful_s, 200e-9);
  EXPECT_DOUBLE_EQ(p.ranks[1].useful_s, 400e-9);
  EXPECT_DOUBLE_EQ(p.runtime_s, 400e-9);  // 300 + 100
  EXPECT_DOUBLE_EQ(p.load_balance, 300.0 / 400.0);
}

}  // namespace
}  // namespace collwrap::testing
