// FlatMap against std::unordered_map under random inserts and erases.
#include "flat_map.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

namespace collwrap {
namespace {

TEST(FlatMap, AgreesWithUnorderedMapUnderRandomUse) {
  FlatMap<std::uint64_t, U64Hash> map;
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 rng(1);
  for (std::uint32_t step = 0; step < 200000; ++step) {
    const std::uint64_t key = rng() % 512;  // few keys: long probe runs, many shifts
    switch (rng() % 3) {
      case 0: {
        const std::uint32_t old = map.assign(key, step);
        const auto it = reference.find(key);
        EXPECT_EQ(old, it == reference.end() ? kNone : it->second);
        reference[key] = step;
        break;
      }
      case 1: {
        const auto it = reference.find(key);
        EXPECT_EQ(map.erase(key), it == reference.end() ? kNone : it->second);
        if (it != reference.end()) reference.erase(it);
        break;
      }
      default: {
        const std::uint32_t* found = map.find(key);
        const auto it = reference.find(key);
        ASSERT_EQ(found != nullptr, it != reference.end());
        if (found) {
          EXPECT_EQ(*found, it->second);
        }
      }
    }
    ASSERT_EQ(map.size(), reference.size());
  }
}

TEST(FlatMap, InsertKeepsTheFirstValue) {
  FlatMap<std::uint64_t, U64Hash> map;
  EXPECT_EQ(map.insert(7, 1), 1u);
  EXPECT_EQ(map.insert(7, 2), 1u);
  EXPECT_EQ(map.size(), 1u);
}

}  // namespace
}  // namespace collwrap
