// Two runs side by side: totals, findings per rank and summed over ranks, and what cannot be
// compared when the runs differ in rank count, program, selected patterns or causes.
#include "run_comparison.h"

#include <gtest/gtest.h>

#include "compare_report.h"
#include "finding_matching.h"

namespace collwrap::testing {
namespace {

Finding finding(std::int32_t rank, std::uint32_t line, double wait) {
  Finding f;
  f.pattern = "late_sender";
  f.rank = rank;
  f.file = "/src/app.c";
  f.line = line;
  f.function = "main";
  f.mpi_function = "MPI_Recv";
  f.occurrences = 5;
  f.wait_time_s = wait;
  return f;
}

ComparedRun run(std::string label, std::int32_t ranks, std::vector<Finding> findings) {
  ComparedRun r{.label = std::move(label)};
  r.result.trace.program = "app";
  r.result.trace.world_size = ranks;
  r.result.trace.duration_s = 2.0;
  double late_sender = 0;
  for (const Finding& f : findings) late_sender += f.wait_time_s;
  r.result.findings = std::move(findings);
  r.result.summary.options.patterns = {"late_sender", "wrong_order", "wait_at_barrier"};
  for (const auto& [pattern, wait] : {std::pair{"late_sender", late_sender},
                                      std::pair{"wrong_order", late_sender / 2},
                                      std::pair{"wait_at_barrier", 0.25}}) {
    PatternTotal& total = r.result.summary.patterns.emplace_back();
    total.pattern = pattern;
    total.wait_time_s = wait;
  }
  r.result.operations = {{.function = "MPI_Recv", .bytes_max = 8, .total_s = late_sender},
                         {.function = "MPI_Recv", .bytes_min = 9, .total_s = 0.5},
                         {.function = "MPI_Barrier", .total_s = 0.25}};
  return r;
}

TEST(RunComparison, AFixedWaitIsGoneWithItsSeconds) {
  const ComparedRun base = run("before", 4, {finding(0, 32, 1.0), finding(2, 32, 0.5)});
  ComparedRun fixed = run("after", 4, {});
  fixed.result.trace.duration_s = 0.5;
  const RunComparison c = compare_runs(base, fixed);
  EXPECT_DOUBLE_EQ(c.run_time_s.delta(), -1.5);
  // wrong_order is part of late_sender: the total counts late_sender and wait_at_barrier only.
  EXPECT_DOUBLE_EQ(c.total_wait_s.base, 1.75);
  EXPECT_DOUBLE_EQ(c.total_wait_s.current, 0.25);
  ASSERT_EQ(c.sites.size(), 1u);
  EXPECT_EQ(c.sites[0].status, FindingStatus::Gone);
  EXPECT_EQ(c.sites[0].rank, kAllRanks);
  EXPECT_DOUBLE_EQ(c.sites[0].wait_s.base, 1.5);
  EXPECT_DOUBLE_EQ(c.sites[0].wait_s.current, 0);
  ASSERT_EQ(c.per_rank.size(), 2u);
  EXPECT_DOUBLE_EQ(c.per_rank[0].wait_s.delta(), -1.0);  // largest change first
  // MPI time per function adds up the size buckets.
  ASSERT_EQ(c.operations.size(), 2u);
  EXPECT_EQ(c.operations[0].name, "MPI_Recv");
  EXPECT_DOUBLE_EQ(c.operations[0].value.base, 2.0);
  EXPECT_DOUBLE_EQ(c.operations[0].value.current, 0.5);
  EXPECT_TRUE(c.not_compared.empty());
}

TEST(RunComparison, AMovedCallKeepsItsIdentity) {
  const RunComparison c =
      compare_runs(run("a", 4, {finding(0, 32, 1.0)}), run("b", 4, {finding(0, 35, 1.2)}));
  ASSERT_EQ(c.sites.size(), 1u);
  EXPECT_EQ(c.sites[0].status, FindingStatus::Matched);
  EXPECT_EQ(c.sites[0].line, 35u);
  EXPECT_EQ(c.sites[0].base_line, 32u);
  EXPECT_NEAR(c.sites[0].wait_s.delta(), 0.2, 1e-12);
  EXPECT_NEAR(*c.sites[0].wait_s.percent(), 20, 1e-9);
}

TEST(RunComparison, DifferentRankCountsCompareSummedOverRanksOnly) {
  const RunComparison c = compare_runs(run("two", 2, {finding(0, 32, 1.0)}),
                                       run("four", 4, {finding(0, 32, 0.5), finding(3, 32, 0.5)}));
  EXPECT_TRUE(c.per_rank.empty());
  ASSERT_EQ(c.sites.size(), 1u);
  EXPECT_DOUBLE_EQ(c.sites[0].wait_s.delta(), 0);
  ASSERT_EQ(c.not_compared.size(), 1u);
  EXPECT_NE(c.not_compared[0].find("2 ranks against 4"), std::string::npos);
}

TEST(RunComparison, PatternsOnlyOneRunLookedForAreLeftOut) {
  ComparedRun base = run("a", 4, {finding(0, 32, 1.0)});
  ComparedRun other = run("b", 4, {finding(0, 32, 1.0)});
  other.result.trace.program = "other";
  other.result.summary.options.patterns = {"late_sender"};
  other.result.summary.patterns.resize(1);
  const RunComparison c = compare_runs(base, other);
  ASSERT_EQ(c.patterns.size(), 1u);
  EXPECT_EQ(c.patterns[0].name, "late_sender");
  EXPECT_DOUBLE_EQ(c.total_wait_s.base, 1.0);  // wait_at_barrier left out
  ASSERT_EQ(c.not_compared.size(), 2u);
  EXPECT_NE(c.not_compared[0].find("programs differ"), std::string::npos);
  EXPECT_NE(c.not_compared[1].find("wrong_order, wait_at_barrier"), std::string::npos);
}

TEST(RunComparison, RootCausesAndPopWhenBothRunsHaveThem) {
  ComparedRun base = run("a", 4, {});
  ComparedRun current = run("b", 4, {});
  RootCause cause;
  cause.rank = 1;
  cause.segment.file = "/src/app.c";
  cause.segment.line = 31;
  cause.segment.function = "main";
  cause.segment.mpi_function = "MPI_Send";
  cause.short_term_cost_s = 1.0;
  cause.long_term_cost_s = 0.5;
  base.result.causes.emplace().root_causes.push_back(cause);
  base.result.causes->pop.region = "MPI_Init..MPI_Finalize";
  base.result.causes->pop.parallel_efficiency = 0.5;
  EXPECT_TRUE(compare_runs(base, current).root_causes.empty());
  EXPECT_EQ(compare_runs(base, current).not_compared.size(), 1u);  // only a has causes

  current.result.causes.emplace().pop.region = "MPI_Init..MPI_Finalize";
  current.result.causes->pop.parallel_efficiency = 0.9;
  const RunComparison c = compare_runs(base, current);
  ASSERT_EQ(c.root_causes.size(), 1u);
  EXPECT_EQ(c.root_causes[0].status, FindingStatus::Gone);
  EXPECT_DOUBLE_EQ(c.root_causes[0].cost_s.base, 1.5);
  ASSERT_FALSE(c.pop.empty());
  EXPECT_EQ(c.pop[0].name, "parallel_efficiency");
  EXPECT_NEAR(c.pop[0].value.delta(), 0.4, 1e-12);

  current.result.causes->pop.region = "MPI_Pcontrol";
  EXPECT_TRUE(compare_runs(base, current).pop.empty());
}

TEST(CompareReport, EachLaterRunAgainstTheBaseWithItsVerdicts) {
  const std::vector<ComparedRun> runs{run("a", 4, {finding(0, 32, 1.0)}),
                                      run("b", 4, {finding(0, 32, 0.1)}),
                                      run("c", 4, {finding(0, 32, 3.0)})};
  const CompareReport r =
      compare_report(runs, {.thresholds = {parse_worse_threshold("late_sender:10")}});
  ASSERT_EQ(r.comparisons.size(), 2u);
  ASSERT_EQ(r.verdicts.size(), 2u);
  EXPECT_FALSE(r.verdicts[0].crossed);
  EXPECT_TRUE(r.verdicts[1].crossed);
  EXPECT_TRUE(r.worse());
  EXPECT_EQ(r.runs.size(), 3u);
}

}  // namespace
}  // namespace collwrap::testing
