#include "record/byte_stream.h"

#include <gtest/gtest.h>

namespace collwrap::tracer {
namespace {

TEST(ByteStream, RoundTripsEveryType) {
  ByteWriter out;
  out.u8(7);
  out.u32(0xDEADBEEF);
  out.u64(1ull << 40);
  out.i64(-12345);
  out.f64(2.5);
  out.str("hello");
  out.str("");
  ByteReader in(out.bytes());
  EXPECT_EQ(in.u8(), 7);
  EXPECT_EQ(in.u32(), 0xDEADBEEFu);
  EXPECT_EQ(in.u64(), 1ull << 40);
  EXPECT_EQ(in.i64(), -12345);
  EXPECT_EQ(in.f64(), 2.5);
  EXPECT_EQ(in.str(), "hello");
  EXPECT_EQ(in.str(), "");
  EXPECT_TRUE(in.at_end());
  EXPECT_FALSE(in.failed());
}

TEST(ByteStream, ReadingPastTheEndFailsWithZeros) {
  ByteWriter out;
  out.u32(5);
  ByteReader in(out.bytes());
  EXPECT_EQ(in.u64(), 0u);
  EXPECT_TRUE(in.failed());
}

TEST(ByteStream, RejectsCountsLargerThanTheRemainingBytes) {
  ByteWriter out;
  out.u32(1000000);  // claims a million 4-byte elements
  out.u32(1);
  ByteReader in(out.bytes());
  EXPECT_EQ(in.count(4), 0u);
  EXPECT_TRUE(in.failed());
}

TEST(ByteStream, TruncatedStringFails) {
  ByteWriter out;
  out.str("truncated");
  auto bytes = out.bytes();
  bytes.resize(bytes.size() - 3);
  ByteReader in(bytes);
  in.str();
  EXPECT_TRUE(in.failed());
}

}  // namespace
}  // namespace collwrap::tracer
