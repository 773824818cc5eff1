// Instances become findings per (pattern, rank, thread, call site).
#include "finding_aggregator.h"

#include <gtest/gtest.h>

#include "catalog.h"
#include "trace_builder.h"

namespace collwrap::testing {
namespace {

class FindingAggregatorTest : public ::testing::Test {
 protected:
  FindingAggregatorTest() {
    TraceBuilder b(2, 2);
    for (int i = 0; i < 4; ++i) b.call(0, "MPI_Recv", i * 100, i * 100 + 50, "/a.c", 7);
    b.call(0, "MPI_Recv", 1000, 1050, "/a.c", 8);
    b.call(0, "MPI_Recv", 1000, 1050, "/a.c", 7, /*thread*/ 1);
    trace_ = b.finish();
  }

  void add(const Pattern& p, std::uint32_t loc, std::uint32_t call, TimeNs idle,
           std::vector<Peer> peers, InstanceDetail detail = {}) {
    aggregator_.add({&p, loc, call, idle, peers, detail});
  }

  Trace trace_;
  FindingAggregator aggregator_{trace_, 2};
};

TEST_F(FindingAggregatorTest, SumsInstancesOfOneCallSite) {
  add(kLateSender, 0, 0, 10, {{1, 0}});
  add(kLateSender, 0, 1, 30, {{3, 0}, {1, 1}});
  add(kLateSender, 0, 2, 20, {{2, 0}});
  ASSERT_EQ(aggregator_.findings().size(), 1u);
  const FindingStats& f = aggregator_.findings()[0];
  EXPECT_EQ(f.occurrences, 3u);
  EXPECT_EQ(f.total, 60);
  EXPECT_EQ(f.max, 30);
  // Each (rank, thread) once, ascending: two threads of rank 1.
  EXPECT_EQ(f.peers, (std::vector<Peer>{{1, 0}, {1, 1}, {2, 0}, {3, 0}}));
  ASSERT_EQ(f.top.size(), 2u);  // the two worst, worst first
  EXPECT_EQ(f.top[0].call, 1u);
  EXPECT_EQ(f.top[0].peers, (std::vector<Peer>{{3, 0}, {1, 1}}));
  EXPECT_EQ(f.top[1].call, 2u);
  EXPECT_EQ(aggregator_.instances(), 3u);
}

TEST_F(FindingAggregatorTest, SeparatesPatternsCallSitesAndThreads) {
  add(kLateSender, 0, 0, 10, {{1, 0}});
  add(kWrongOrder, 0, 0, 10, {{1, 0}});
  add(kLateSender, 0, 4, 10, {{1, 0}});  // line 8
  add(kLateSender, 1, 0, 10, {{1, 0}});  // thread 1, same line 7
  EXPECT_EQ(aggregator_.findings().size(), 4u);
}

TEST_F(FindingAggregatorTest, CountsPatternDetails) {
  add(kWrongOrder, 0, 0, 10, {{1, 0}},
      {.send_mode = SendMode::Standard, .order = MessageOrder::SameSource});
  add(kWrongOrder, 0, 1, 10, {{1, 0}},
      {.send_mode = SendMode::Synchronous, .order = MessageOrder::DifferentSource});
  add(kWrongOrder, 0, 2, 10, {{1, 0}},
      {.send_mode = SendMode::Standard, .order = MessageOrder::SameSource});
  const FindingStats& f = aggregator_.findings()[0];
  EXPECT_EQ(f.send_modes[static_cast<int>(SendMode::Standard)], 2u);
  EXPECT_EQ(f.send_modes[static_cast<int>(SendMode::Synchronous)], 1u);
  EXPECT_EQ(f.same_source, 2u);
  EXPECT_EQ(f.different_source, 1u);
}

TEST_F(FindingAggregatorTest, KeepsTheRelatedCallOfTheWorstInstance) {
  add(kEarlyWait, 0, 1, 10, {{1, 0}},
      {.related_call = 0, .optimal_distance = 100, .actual_distance = 20});
  add(kEarlyWait, 0, 3, 50, {{1, 0}},
      {.related_call = 2, .optimal_distance = 300, .actual_distance = 40});
  const FindingStats& f = aggregator_.findings()[0];
  EXPECT_EQ(f.related_call, 2u);
  EXPECT_EQ(f.distances, 2u);
  EXPECT_EQ(f.optimal_distance_sum, 400);
  EXPECT_EQ(f.actual_distance_sum, 60);
}

}  // namespace
}  // namespace collwrap::testing
