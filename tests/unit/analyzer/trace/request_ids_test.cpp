// Request ids are kept only on locations that have any: blocking communication records none,
// and its locations carry no request column at all.
#include <gtest/gtest.h>

#include <vector>

#include "scratch_directory.h"
#include "synthetic_archive.h"
#include "trace_builder.h"
#include "trace_reader.h"

namespace collwrap::testing {
namespace {

TEST(RequestIds, ALocationWithOnlyBlockingCallsKeepsNoColumn) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2});
  const auto send = a.region("MPI_Send"), recv = a.region("MPI_Recv");
  const auto isend = a.region("MPI_Isend"), wait = a.region("MPI_Wait");
  auto& r0 = a.location(0);
  r0.enter(0, send);
  r0.send(1, 1, a.world(), 7, 8);
  r0.leave(2, send);
  r0.enter(10, isend);  // the first id comes after an op without one
  r0.isend(11, 1, a.world(), 7, 8, 42);
  r0.leave(12, isend);
  r0.enter(20, wait);
  r0.isend_complete(21, 42);
  r0.leave(22, wait);
  auto& r1 = a.location(1);
  for (std::uint64_t t : {5u, 25u}) {
    r1.enter(t, recv);
    r1.recv(t + 1, 0, a.world(), 7, 8);
    r1.leave(t + 2, recv);
  }
  a.close();
  const Trace t = read_trace(a.anchor());
  const Location& nonblocking = t.locations[0];
  ASSERT_EQ(nonblocking.ops(), 3u);
  EXPECT_EQ(nonblocking.op_request, (std::vector<std::uint64_t>{0, 42, 42}));
  EXPECT_EQ(nonblocking.request(1), 42u);
  const Location& blocking = t.locations[1];
  ASSERT_EQ(blocking.ops(), 2u);
  EXPECT_TRUE(blocking.op_request.empty());
  EXPECT_EQ(blocking.request(0), 0u);
  EXPECT_EQ(blocking.request(1), 0u);
}

TEST(RequestIds, TheColumnAppearsWithTheFirstIdAndKeepsPaceWithTheOps) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 0, 10), 1, 0, 8);
  b.isend(b.call(0, "MPI_Isend", 20, 30), 1, 0, 8, 5);
  b.send(b.call(0, "MPI_Send", 40, 50), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 0, 10), 0, 0, 8);
  const Trace t = b.finish();
  EXPECT_EQ(t.locations[0].op_request, (std::vector<std::uint64_t>{0, 5, 0}));
  EXPECT_TRUE(t.locations[1].op_request.empty());
}

}  // namespace
}  // namespace collwrap::testing
