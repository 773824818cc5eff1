// A slice's runs of calls: every global id of a run has its local number, one after another
// location by location, and no other global id has one, also where runs are empty.
#include "call_runs.h"

#include <gtest/gtest.h>

namespace collwrap {
namespace {

TEST(CallRuns, NumbersTheRunsCallsLocationByLocation) {
  CallRuns runs;
  runs.add(0, 0);    // an empty run first
  runs.add(10, 13);  // 0, 1, 2
  runs.add(13, 13);  // empty, sharing its first call with the next run
  runs.add(13, 15);  // 3, 4
  runs.add(20, 20);  // empty at the end
  EXPECT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs.local(10), 0u);
  EXPECT_EQ(runs.local(12), 2u);
  EXPECT_EQ(runs.local(13), 3u);
  EXPECT_EQ(runs.local(14), 4u);
  for (const std::uint32_t outside : {0u, 9u, 15u, 19u, 20u, 100u})
    EXPECT_EQ(runs.local(outside), kNone) << outside;
  EXPECT_EQ(CallRuns().local(0), kNone);
  EXPECT_EQ(CallRuns().size(), 0u);
}

}  // namespace
}  // namespace collwrap
