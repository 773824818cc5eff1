// RecentLookups: the last two keys looked up, answered without the lookup.
#include "recent_lookups.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collwrap {
namespace {

// Looks up each key of `keys` in turn; returns the keys the lookup was asked for.
std::vector<char> looked_up(RecentLookups<char, int>& recent, const std::string& keys) {
  std::vector<char> asked;
  for (const char key : keys) {
    const int value = recent.get(key, [&](char k) {
      asked.push_back(k);
      return k * 10;
    });
    EXPECT_EQ(value, key * 10) << "key " << key;
  }
  return asked;
}

TEST(RecentLookups, TwoKeysTakingTurnsAreLookedUpOnce) {
  RecentLookups<char, int> recent;
  EXPECT_EQ(looked_up(recent, "ababab"), (std::vector<char>{'a', 'b'}));
}

TEST(RecentLookups, ANewKeyTakesThePlaceOfTheOneAskedForLeastRecently) {
  RecentLookups<char, int> recent;
  // c pushes out a (b was asked for after it); a then pushes out b; b is looked up again.
  EXPECT_EQ(looked_up(recent, "abcab"), (std::vector<char>{'a', 'b', 'c', 'a', 'b'}));
  RecentLookups<char, int> other;
  // a, asked for again before c came, stays; b goes.
  EXPECT_EQ(looked_up(other, "abacab"), (std::vector<char>{'a', 'b', 'c', 'b'}));
}

TEST(RecentLookups, PeekFindsOnlyTheLastTwoKeys) {
  RecentLookups<char, int> recent;
  EXPECT_EQ(recent.peek('a'), nullptr);
  looked_up(recent, "abc");
  EXPECT_EQ(recent.peek('a'), nullptr);
  ASSERT_NE(recent.peek('b'), nullptr);
  EXPECT_EQ(*recent.peek('b'), 'b' * 10);
  ASSERT_NE(recent.peek('c'), nullptr);
  EXPECT_EQ(*recent.peek('c'), 'c' * 10);
}

// A default-made key (0 here) is not found before it was asked for.
TEST(RecentLookups, NothingIsAtHandBeforeTheFirstLookup) {
  RecentLookups<int, int> recent;
  EXPECT_EQ(recent.peek(0), nullptr);
  int asked = 0;
  EXPECT_EQ(recent.get(0, [&](int) { return ++asked; }), 1);
  EXPECT_EQ(recent.get(0, [&](int) { return ++asked; }), 1);
  EXPECT_EQ(asked, 1);
}

}  // namespace
}  // namespace collwrap
