// Op times: 32-bit offsets from their call's Enter, with the rare ones that do not fit (a
// call longer than about 4.3 s, timestamps out of order) kept whole apart.
#include <gtest/gtest.h>

#include <vector>

#include "matching.h"
#include "scratch_directory.h"
#include "synthetic_archive.h"
#include "time_normalization.h"
#include "trace_builder.h"
#include "trace_reader.h"

namespace collwrap::testing {
namespace {

constexpr TimeNs kFiveSeconds = 5'000'000'000;

TEST(SparseOpTimes, SetKeepsTheOpsInOrderAndReplacesAKeptOne) {
  SparseOpTimes times;
  times.set(7, 70);
  times.set(2, 20);
  times.set(9, 90);
  times.set(7, 71);
  EXPECT_EQ(times.ops, (std::vector<std::uint32_t>{2, 7, 9}));
  EXPECT_EQ(times.of(7, 10), 71);
  EXPECT_EQ(times.of(2, 10), 20);
  EXPECT_EQ(times.of(3, 10), 0);
}

TEST(OpTimes, TimesFarFromTheirCallsEnterAreKeptWhole) {
  TraceBuilder b(2);
  // A receive's op is at its call's Leave, a send's at its Enter.
  const std::uint32_t late = b.recv(b.call(1, "MPI_Recv", 100, 100 + kFiveSeconds), 0, 0, 8);
  const std::uint32_t near = b.send(b.call(0, "MPI_Send", 100, 300), 1, 0, 8);
  // At the last offset that fits, and at the first that does not.
  const TimeNs last_narrow = TimeNs{kWideTime} - 1;
  const std::uint32_t fits = b.recv(b.call(0, "MPI_Recv", 1000, 1000 + last_narrow), 1, 0, 8);
  const std::uint32_t wide =
      b.recv(b.call(0, "MPI_Recv", 1000 + last_narrow + 10, 1000 + 2 * last_narrow + 11), 1, 0, 8);
  const Trace t = b.finish();
  EXPECT_EQ(t.locations[1].op_time(late), 100 + kFiveSeconds);
  EXPECT_EQ(t.locations[1].op_wide_time.ops, (std::vector<std::uint32_t>{late}));
  EXPECT_EQ(t.locations[0].op_time(near), 100);
  EXPECT_EQ(t.locations[0].op_time(fits), 1000 + last_narrow);
  EXPECT_EQ(t.locations[0].op_time_offset[fits], kWideTime - 1);
  EXPECT_EQ(t.locations[0].op_time(wide), 1000 + 2 * last_narrow + 11);
  EXPECT_EQ(t.locations[0].op_wide_time.ops, (std::vector<std::uint32_t>{wide}));
}

// Timestamps out of order put an op before its call's Enter; a time set again replaces the
// one kept.
TEST(OpTimes, AnOpBeforeItsCallsEnterIsKeptWholeAndCanBeSetAgain) {
  TraceBuilder b(1);
  const std::uint32_t op = b.collective(b.call(0, "MPI_Barrier", 500, 600), CollOp::Barrier);
  Trace t = b.finish();
  Location& l = t.locations[0];
  l.set_op_time(op, 400);
  EXPECT_EQ(l.op_time(op), 400);
  EXPECT_EQ(l.op_time_offset[op], kWideTime);
  l.set_op_time(op, 300);
  EXPECT_EQ(l.op_time(op), 300);
  EXPECT_EQ(l.op_wide_time.ops.size(), 1u);
  l.set_op_time(op, 550);
  EXPECT_EQ(l.op_time(op), 550);
  EXPECT_EQ(l.op_time_offset[op], 50u);
}

TEST(OpTimes, StartingAtZeroMovesTheWholeTimesToo) {
  TraceBuilder b(1);
  const std::uint32_t wide = b.recv(b.call(0, "MPI_Recv", 1000, 1000 + kFiveSeconds), 0, 0, 8);
  const std::uint32_t narrow =
      b.send(b.call(0, "MPI_Send", kFiveSeconds + 2000, kFiveSeconds + 3000), 0, 0, 8);
  Trace t = b.finish();
  start_time_at_zero(t, 1);
  EXPECT_EQ(t.locations[0].op_time(wide), kFiveSeconds);
  EXPECT_EQ(t.locations[0].op_time(narrow), kFiveSeconds + 1000);
}

// A receive that waited 5 s in MPI_Recv for its message: the reader keeps its time exactly,
// and matching finds no clock violation.
TEST(OpTimes, TheReaderKeepsATimeFarFromItsCallsEnterExactly) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2});
  const auto send = a.region("MPI_Send"), recv = a.region("MPI_Recv");
  const auto five_s = static_cast<std::uint64_t>(kFiveSeconds);
  a.location(0).enter(five_s, send);
  a.location(0).send(five_s + 1, 1, a.world(), 7, 8);
  a.location(0).leave(five_s + 2, send);
  a.location(1).enter(0, recv);
  a.location(1).recv(five_s + 3, 0, a.world(), 7, 8);
  a.location(1).leave(five_s + 4, recv);
  a.close();
  const Trace t = read_trace(a.anchor());
  EXPECT_EQ(t.locations[1].op_time(0), kFiveSeconds + 3);
  EXPECT_EQ(t.locations[1].op_wide_time.ops.size(), 1u);
  EXPECT_EQ(t.locations[0].op_time(0), kFiveSeconds + 1);
  EXPECT_EQ(match_trace(t).counts.clock_violations, 0u);
}

}  // namespace
}  // namespace collwrap::testing
