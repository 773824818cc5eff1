#include "ops_correction.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops_operations.h"

namespace collwrap::bench {
namespace {

TEST(OpsCorrection, ClockReadBarrierAndOperationCosts) {
  // Two reads 0.05 µs apart: DT = 0.05.
  EXPECT_NEAR(clock_read_cost(10.00, 10.05), 0.05, 1e-12);
  // barrier, t1, barrier, t2 took 3.05 µs, of which 0.05 was the clock read: DB = 3.
  EXPECT_NEAR(barrier_cost(100, 103.05, 0.05), 3.0, 1e-12);
  // barrier, t1, op, barrier, t2 took 10.05 µs: the operation took 10.05 − 0.05 − 3 = 7.
  EXPECT_NEAR(corrected_time(200, 210.05, 0.05, 3.0), 7.0, 1e-12);
}

TEST(OpsCorrection, RepeatsGiveMeanAndSpread) {
  const OpsFigure f = combine_repeats(std::vector<double>{4, 2, 6});
  EXPECT_DOUBLE_EQ(f.mean_us, 4);
  EXPECT_DOUBLE_EQ(f.min_us, 2);
  EXPECT_DOUBLE_EQ(f.max_us, 6);
}

TEST(OpsOperations, MpitestsTableInOrder) {
  std::vector<std::string> names;
  for (const OpsOperation& op : ops_operations()) names.push_back(op.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"TIMING", "BARRIER", "ALLREDUCE", "REDUCE", "BROADCAST",
                                      "GATHER", "ALLGATHER", "ALL-TO-ALL", "ISEND&WAIT",
                                      "BLOCKING SEND", "SENDRECV", "SEND&RECV", "SIGNAL"}));
}

TEST(OpsOperations, QuickOperationsAreTimingBarrierAndSignal) {
  for (const OpsOperation& op : ops_operations()) {
    const std::string name = op.name;
    const bool quick = name == "TIMING" || name == "BARRIER" || name == "SIGNAL";
    EXPECT_EQ(op.short_op, quick) << name;
    EXPECT_EQ(op.sized, !quick) << name;  // the quick ones move no data
  }
}

TEST(OpsOperations, BufferHoldsAMessagePerRankForGathersAndAllToAll) {
  for (const OpsOperation& op : ops_operations()) {
    const std::string name = op.name;
    const bool per_rank = name == "GATHER" || name == "ALLGATHER" || name == "ALL-TO-ALL";
    EXPECT_EQ(ops_buffer_ints(op, 100, 4), per_rank ? 400u : 100u) << name;
  }
}

}  // namespace
}  // namespace collwrap::bench
