// What-if questions: parsing, matching call sites, and the replayed gain.
#include <gtest/gtest.h>

#include <set>

#include "root_causes.h"
#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

TEST(WhatIf, ParsesRankSegmentAndScale) {
  const WhatIfSpec s = parse_what_if("rank=3,segment=src/lulesh.cc:2710,scale=0.5");
  EXPECT_EQ(s.rank, 3);
  EXPECT_EQ(s.file, "src/lulesh.cc");
  EXPECT_EQ(s.line, 2710u);
  EXPECT_DOUBLE_EQ(s.scale, 0.5);
  const WhatIfSpec d = parse_what_if("segment=a.c:7");
  EXPECT_EQ(d.rank, -1);
  EXPECT_DOUBLE_EQ(d.scale, 0);
}

TEST(WhatIf, RejectsWhatItCannotAnswer) {
  for (const char* bad : {"rank=3", "segment=a.c", "segment=a.c:0", "segment=a.c:5,scale=-1",
                          "rank=x,segment=a.c:5", "segment=a.c:5,speed=2", "segment"})
    EXPECT_THROW(parse_what_if(bad), std::invalid_argument) << bad;
}

TEST(WhatIf, FileMatchesWholeTrailingPathComponents) {
  const CallSite site{"/home/u/app/src/solver.c", 12, "main"};
  EXPECT_TRUE(site_matches(site, "/home/u/app/src/solver.c", 12));
  EXPECT_TRUE(site_matches(site, "src/solver.c", 12));
  EXPECT_TRUE(site_matches(site, "solver.c", 12));
  EXPECT_FALSE(site_matches(site, "olver.c", 12));
  EXPECT_FALSE(site_matches(site, "solver.c", 13));
}

TEST(WhatIf, ReplaysTheRunWithTheSegmentScaled) {
  const TracedRun run(delay_chain());
  CauseOptions options;
  options.what_ifs = {parse_what_if("rank=0,segment=sync.c:20,scale=0.25"),
                      parse_what_if("rank=1,segment=sync.c:20,scale=0")};
  const CauseAnalysis c = find_root_causes(run.trace, run.matching, options);
  ASSERT_EQ(c.what_ifs.size(), 2u);
  EXPECT_EQ(c.what_ifs[0].segments_changed, 1u);
  EXPECT_NEAR(c.what_ifs[0].gain_s, 300e-9, 1e-15);
  EXPECT_NEAR(c.what_ifs[0].runtime_s, 140e-9, 1e-15);
  // Rank 1's segment before its send is already empty: nothing to gain.
  EXPECT_NEAR(c.what_ifs[1].gain_s, 0, 1e-15);
}

// A question that changes nothing takes no replay lane: the questions after it fill the pass,
// and each answer is the one it gets when asked alone.
TEST(WhatIf, AQuestionThatChangesNothingLeavesItsLaneToTheNext) {
  const TracedRun run(moving_imbalance());
  const std::vector<WhatIfSpec> asked = {parse_what_if("rank=0,segment=sync.c:10,scale=0.5"),
                                         parse_what_if("segment=nowhere.c:1,scale=0"),
                                         parse_what_if("rank=2,segment=sync.c:10,scale=0"),
                                         parse_what_if("segment=sync.c:10,scale=0.25")};
  std::vector<double> alone_runtime;
  for (const WhatIfSpec& question : asked) {
    CauseOptions alone;
    alone.estimated_causes = 0;
    alone.what_ifs = {question};
    const CauseAnalysis one = find_root_causes(run.trace, run.matching, alone, 1);
    ASSERT_EQ(one.what_ifs.size(), 1u);
    alone_runtime.push_back(one.what_ifs[0].runtime_s);
  }
  // The answers differ, so that a mix-up would show.
  EXPECT_EQ(std::set<double>(alone_runtime.begin(), alone_runtime.end()).size(), asked.size());
  CauseOptions together;
  together.estimated_causes = 0;
  together.what_ifs = asked;
  // One thread runs two lanes to a pass; with two, the first runs two and the other one.
  for (const unsigned threads : {1u, 2u}) {
    const CauseAnalysis all = find_root_causes(run.trace, run.matching, together, threads);
    ASSERT_EQ(all.what_ifs.size(), asked.size());
    EXPECT_EQ(all.what_ifs[1].segments_changed, 0u);
    for (std::size_t q = 0; q < asked.size(); ++q)
      EXPECT_EQ(all.what_ifs[q].runtime_s, alone_runtime[q])
          << threads << " threads, question " << q;
  }
}

// The replays of the root causes and questions run two to a pass on one thread, and on more
// two on the first thread and one on each other; every answer is the same on any number.
TEST(WhatIf, AnswersAreTheSameOnAnyNumberOfThreads) {
  const TracedRun run(moving_imbalance());
  CauseOptions options;
  options.what_ifs = {parse_what_if("rank=0,segment=sync.c:10,scale=0.5"),
                      parse_what_if("rank=2,segment=sync.c:10,scale=0"),
                      parse_what_if("segment=sync.c:10,scale=0.25")};
  const CauseAnalysis one = find_root_causes(run.trace, run.matching, options, 1);
  ASSERT_GE(one.root_causes.size() + one.what_ifs.size(), 5u);  // more than 2 or 4 threads run
  std::set<double> gains;
  for (const WhatIfResult& w : one.what_ifs) gains.insert(w.gain_s);
  ASSERT_EQ(gains.size(), one.what_ifs.size());  // the questions' replays differ
  for (const unsigned threads : {2u, 3u, 4u, 7u}) {
    const CauseAnalysis c = find_root_causes(run.trace, run.matching, options, threads);
    ASSERT_EQ(c.root_causes.size(), one.root_causes.size()) << threads;
    for (std::size_t i = 0; i < c.root_causes.size(); ++i) {
      EXPECT_EQ(c.root_causes[i].rank, one.root_causes[i].rank) << threads << " threads, " << i;
      EXPECT_EQ(c.root_causes[i].gain_s, one.root_causes[i].gain_s) << threads << " threads, " << i;
    }
    ASSERT_EQ(c.what_ifs.size(), one.what_ifs.size());
    for (std::size_t i = 0; i < c.what_ifs.size(); ++i)
      EXPECT_EQ(c.what_ifs[i].runtime_s, one.what_ifs[i].runtime_s) << threads << " threads, " << i;
  }
}

}  // namespace
}  // namespace collwrap::testing
