// POP efficiencies: the arithmetic of LB, CommE = SerE × TE and PE on runs with known values.
#include "pop_efficiency.h"

#include <gtest/gtest.h>

#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

PopEfficiencies pop_of(const TracedRun& run) {
  return pop_efficiencies(run.trace, run.graph, replay_trace(run.trace, run.graph),
                          replay_trace(run.trace, run.graph, {NetworkModel::Ideal, {}}));
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

}  // namespace
}  // namespace collwrap::testing
