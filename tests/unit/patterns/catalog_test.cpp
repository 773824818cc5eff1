// The pattern catalog, --patterns selection, and the --min-wait filter of run_patterns.
#include "catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "rule_test_support.h"
#include "run_patterns.h"

namespace collwrap::testing {
namespace {

// The ids themselves are checked against the README, the report schema and --help by
// patterns.catalog_docs; here: each once, and every relation names a pattern of the catalog.
TEST(Catalog, IdsAreUniqueAndRelationsNameCatalogPatterns) {
  std::set<std::string_view> ids;
  for (const Pattern* p : pattern_catalog()) ids.insert(p->id);
  EXPECT_EQ(ids.size(), pattern_catalog().size());  // no id twice
  for (const Pattern* p : pattern_catalog()) {
    if (!p->parent.empty()) {
      EXPECT_NE(find_pattern(p->parent), nullptr) << p->id;
    }
    EXPECT_NE(p->parent, p->id);
    for (std::string_view other : p->may_include)
      if (!other.empty()) {
        EXPECT_NE(find_pattern(other), nullptr) << p->id;
      }
  }
}

TEST(Catalog, OverlapsFollowFromTheRelations) {
  EXPECT_EQ(kWrongOrder.parent, "late_sender");
  EXPECT_EQ(pattern_overlap_note(),
            "wrong_order is part of late_sender; early_wait can include late_sender or "
            "late_receiver time; rma_late_complete is part of rma_early_wait; slow_workers can "
            "include late_sender or late_wait_until time; overloaded_master can include "
            "late_sender or late_wait_until time");
  std::set<std::string_view> separate;
  for (const Pattern* p : pattern_catalog())
    if (counts_separately(*p)) separate.insert(p->id);
  EXPECT_FALSE(separate.contains("wrong_order"));
  EXPECT_FALSE(separate.contains("early_wait"));
  EXPECT_FALSE(separate.contains("sendrecv_candidate"));
  EXPECT_FALSE(separate.contains("frequent_small_communication"));  // a saving, not idle time
  EXPECT_FALSE(separate.contains("rma_late_complete"));
  EXPECT_FALSE(separate.contains("large_communication"));
  EXPECT_FALSE(separate.contains("unbalanced_communication"));
  EXPECT_FALSE(separate.contains("slow_workers"));
  EXPECT_FALSE(separate.contains("overloaded_master"));
  EXPECT_EQ(separate.size(), pattern_catalog().size() - 9);
}

TEST(Catalog, EveryPatternIsFullyDeclared) {
  for (const Pattern* p : pattern_catalog()) {
    EXPECT_FALSE(p->description.empty()) << p->id;
    EXPECT_FALSE(p->peer_role.empty()) << p->id;
    EXPECT_FALSE(p->recommendation.empty()) << p->id;
    EXPECT_FALSE(p->formula.empty()) << p->id;
    EXPECT_NE(p->find, nullptr) << p->id;
    EXPECT_EQ(p->description.find('\n'), std::string_view::npos) << p->id;  // one line
    EXPECT_TRUE(std::all_of(p->id.begin(), p->id.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || c == '_';
    })) << p->id;
    EXPECT_EQ(find_pattern(p->id), p);
  }
  EXPECT_EQ(find_pattern("late_senders"), nullptr);
}

TEST(SelectPatterns, AllIsTheWholeCatalog) {
  const auto all = select_patterns("all");
  EXPECT_TRUE(
      std::equal(all.begin(), all.end(), pattern_catalog().begin(), pattern_catalog().end()));
}

TEST(SelectPatterns, ListComesBackInCatalogOrderOnce) {
  const auto some = select_patterns("early_wait,late_sender,early_wait");
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[0], &kLateSender);
  EXPECT_EQ(some[1], &kEarlyWait);
}

TEST(SelectPatterns, UnknownOrEmptyIdsAreErrors) {
  EXPECT_THROW(select_patterns("late_sender,bogus"), UnknownPatternError);
  EXPECT_THROW(select_patterns("late_sender,"), UnknownPatternError);
  EXPECT_THROW(select_patterns(""), UnknownPatternError);
  EXPECT_THROW(select_patterns("All"), UnknownPatternError);
  try {
    select_patterns("late_sender,bogus");
  } catch (const UnknownPatternError& e) {
    EXPECT_STREQ(e.what(), "bogus");
  }
}

TEST(RunPatterns, MinWaitHidesShorterInstances) {
  // Two late-sender waits: 500 ns and 5000 ns.
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 100, 1000), 1, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 2000, 9000), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 600, 610), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 7000, 7010), 0, 0, 8);
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  const std::vector<const Pattern*> late_sender = {&kLateSender};

  RuleOptions options;
  options.min_wait = 5000;  // exactly the longer wait: kept
  CollectingSink kept(t);
  EXPECT_EQ(run_patterns({t, m, options}, late_sender, kept), 1u);
  ASSERT_EQ(kept.found.size(), 1u);
  EXPECT_EQ(kept.found[0].idle, 5000);

  options.min_wait = 0;
  CollectingSink all(t);
  EXPECT_EQ(run_patterns({t, m, options}, late_sender, all), 0u);
  EXPECT_EQ(all.found.size(), 2u);
}

TEST(RunPatterns, RunsOnlyTheSelectedPatterns) {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 100, 100'000), 1, 0, 8);
  b.send(b.call(1, "MPI_Ssend", 60'000, 100'000), 0, 0, 8);
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  const std::vector<const Pattern*> none_matching = {&kWaitAtBarrier, &kLateReceiver};
  CollectingSink sink(t);
  const RuleOptions options;
  run_patterns({t, m, options}, none_matching, sink);
  EXPECT_TRUE(sink.found.empty());
}

}  // namespace
}  // namespace collwrap::testing
