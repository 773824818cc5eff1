// A slice's runs of calls: every global id of a run has its local number, one after another
// location by location, and no other global id has one, also where runs are empty.
#include "call_runs.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

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

// Runs found through blocks of global ids: runs that span several blocks, many in one block,
// runs starting on a block's first id, empty ones; each id's number as a scan of the runs gives.
TEST(CallRuns, FindEveryCallAsAScanOfTheRunsDoes) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 20; ++trial) {
    CallRuns runs;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> added;
    std::uint32_t next = trial % 2 ? 4096 : 0;
    for (int r = 0; r < 60; ++r) {
      const std::uint32_t kind = random() % 4;
      const std::uint32_t length = kind == 0 ? 0 : kind == 1 ? random() % 5 : random() % 9000;
      const std::uint32_t gap = random() % 3 == 0 ? 4096 - next % 4096 : random() % 50;
      next += gap;
      runs.add(next, next + length);
      added.emplace_back(next, next + length);
      next += length;
    }
    const auto scanned = [&](std::uint32_t g) {
      std::uint32_t local = 0;
      for (const auto& [first, end] : added) {
        if (g >= first && g < end) return local + (g - first);
        local += end - first;
      }
      return kNone;
    };
    for (std::uint32_t g = 0; g < next + 5000; ++g) ASSERT_EQ(runs.local(g), scanned(g)) << g;
  }
}

}  // namespace
}  // namespace collwrap
