#include "record/location_id.h"

#include <gtest/gtest.h>

namespace collwrap::tracer {
namespace {

TEST(LocationId, MainThreadIdIsTheRank) {
  EXPECT_EQ(pack_location_id(0, 0), 0u);
  EXPECT_EQ(pack_location_id(0, 17), 17u);
}

TEST(LocationId, ThreadIndexGoesIntoTheHighWord) {
  std::uint64_t id = pack_location_id(3, 5);
  EXPECT_EQ(id, (std::uint64_t(3) << 32) | 5u);
  EXPECT_EQ(location_thread(id), 3u);
  EXPECT_EQ(location_rank(id), 5u);
}

TEST(LocationId, RoundTripsLargeValues) {
  std::uint64_t id = pack_location_id(0xFFFFu, 0x7FFFFFFFu);
  EXPECT_EQ(location_thread(id), 0xFFFFu);
  EXPECT_EQ(location_rank(id), 0x7FFFFFFFu);
}

}  // namespace
}  // namespace collwrap::tracer
