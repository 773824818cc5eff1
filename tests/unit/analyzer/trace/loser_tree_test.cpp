// LoserTree: merging sorted sources gives every key once, largest first, whatever the number of
// sources (padded to a power of two) and however many of them are empty.
#include "loser_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace collwrap {
namespace {

// Merges `sources` (each in decreasing order) and returns the keys in the order taken.
std::vector<int> merged(const std::vector<std::vector<int>>& sources) {
  std::vector<int> first(sources.size());
  std::vector<char> has(sources.size());
  std::vector<std::size_t> next(sources.size(), 0);
  for (std::size_t s = 0; s < sources.size(); ++s)
    if ((has[s] = !sources[s].empty())) first[s] = sources[s][next[s]++];
  LoserTree<int> tree(first, has);
  std::vector<int> out;
  while (!tree.empty()) {
    const std::uint32_t s = tree.top();
    out.push_back(tree.top_key());
    if (next[s] < sources[s].size())
      tree.replace_top(sources[s][next[s]++]);
    else
      tree.replace_top(0, false);
  }
  return out;
}

TEST(LoserTree, MergesSortedSourcesLargestFirst) {
  std::mt19937 random(7);
  for (const std::size_t count : {1u, 2u, 3u, 5u, 8u, 13u, 64u, 100u}) {
    SCOPED_TRACE(std::to_string(count) + " sources");
    std::vector<std::vector<int>> sources(count);
    std::vector<int> all;
    int key = 0;
    for (int i = 0; i < 2000; ++i) {
      // Every fourth source stays empty; distinct keys, as the delay analysis's are.
      const std::size_t s = random() % count;
      if (count > 1 && s % 4 == 3) continue;
      sources[s].push_back(key);
      all.push_back(key++);
    }
    for (auto& source : sources) std::sort(source.begin(), source.end(), std::greater<>());
    std::sort(all.begin(), all.end(), std::greater<>());
    EXPECT_EQ(merged(sources), all);
  }
}

TEST(LoserTree, NoSourcesOrOnlyEmptyOnesAreEmpty) {
  EXPECT_TRUE(merged({}).empty());
  EXPECT_TRUE(merged({{}, {}, {}}).empty());
  EXPECT_EQ(merged({{}, {5, 1}, {}}), (std::vector<int>{5, 1}));
}

}  // namespace
}  // namespace collwrap
