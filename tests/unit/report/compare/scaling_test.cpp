// POP scaling metrics: speedup, computational scaling from the total useful time, and global
// efficiency = parallel efficiency × computational scaling, relative to the fewest ranks.
#include "scaling.h"

#include <gtest/gtest.h>

namespace collwrap::testing {
namespace {

ScalingPoint point(std::int32_t ranks, double runtime, double useful, double pe) {
  return {.label = std::to_string(ranks),
          .ranks = ranks,
          .runtime_s = runtime,
          .total_useful_s = useful,
          .parallel_efficiency = pe};
}

TEST(Scaling, MetricsRelativeToTheFewestRanks) {
  // Given out of order: 4 ranks first.
  const std::vector<ScalingRow> rows =
      scaling_rows({point(4, 6.0, 20.0, 0.8), point(2, 10.0, 16.0, 0.9)});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].point.ranks, 2);
  EXPECT_DOUBLE_EQ(rows[0].speedup, 1.0);
  EXPECT_DOUBLE_EQ(rows[0].computational_scaling, 1.0);
  EXPECT_DOUBLE_EQ(rows[0].global_efficiency, 0.9);  // the reference's own parallel efficiency
  EXPECT_DOUBLE_EQ(rows[1].speedup, 10.0 / 6.0);
  EXPECT_DOUBLE_EQ(rows[1].ideal_speedup, 2.0);
  // 4 ranks compute 20 s in total where 2 ranks computed 16 s: computational scaling 0.8.
  EXPECT_DOUBLE_EQ(rows[1].computational_scaling, 0.8);
  EXPECT_DOUBLE_EQ(rows[1].global_efficiency, 0.8 * 0.8);
}

TEST(Scaling, PerfectScalingKeepsComputationalScalingAtOne) {
  const std::vector<ScalingRow> rows =
      scaling_rows({point(1, 8, 8, 1), point(2, 4, 8, 1), point(4, 2, 8, 1)});
  for (const ScalingRow& r : rows) {
    EXPECT_DOUBLE_EQ(r.computational_scaling, 1);
    EXPECT_DOUBLE_EQ(r.global_efficiency, 1);
    EXPECT_DOUBLE_EQ(r.speedup, r.ideal_speedup);
  }
}

TEST(Scaling, NoUsefulTimeGivesZeroNotInfinity) {
  const std::vector<ScalingRow> rows = scaling_rows({point(2, 1, 1, 1), point(4, 0, 0, 1)});
  EXPECT_EQ(rows[1].speedup, 0);
  EXPECT_EQ(rows[1].computational_scaling, 0);
  EXPECT_TRUE(scaling_rows({}).empty());
}

ComparedRun run(std::string program, std::int32_t ranks, bool pop) {
  ComparedRun r{.label = program + "-" + std::to_string(ranks)};
  r.result.trace.program = std::move(program);
  r.result.trace.world_size = ranks;
  if (pop) {
    PopEfficiencies& p = r.result.causes.emplace().pop;
    p.runtime_s = 4.0 / ranks;
    p.parallel_efficiency = 0.5;
    for (std::int32_t i = 0; i < ranks; ++i) p.ranks.push_back({.rank = i, .useful_s = 1.0});
  }
  return r;
}

TEST(Scaling, StudyLeavesOutRunsWithoutPopOrOfAnotherProgram) {
  const std::vector<ComparedRun> runs{run("app", 2, true), run("app", 4, true),
                                      run("app", 8, false), run("other", 8, true)};
  const ScalingStudy s = scaling_study(runs);
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(s.rows[1].point.total_useful_s, 4.0);
  EXPECT_DOUBLE_EQ(s.rows[1].computational_scaling, 0.5);
  EXPECT_DOUBLE_EQ(s.rows[1].global_efficiency, 0.25);
  ASSERT_EQ(s.not_compared.size(), 2u);
  EXPECT_NE(s.not_compared[0].find("no POP efficiencies"), std::string::npos);
  EXPECT_NE(s.not_compared[1].find("another program"), std::string::npos);
}

}  // namespace
}  // namespace collwrap::testing
