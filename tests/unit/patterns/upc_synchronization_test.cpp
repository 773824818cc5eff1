// UPC synchronization on hand-built event streams: the split-phase barrier (upc_notify …
// upc_wait, measured from the upc_notify like MPI_Ibarrier from its posting call) and the wait
// in upc_all_alloc for the allocating thread 0.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

// Thread t notifies at notify[t], computes, then waits in upc_wait from wait[t] to leave[t].
Trace split_phase_barrier(const TimeNs (&notify)[3], const TimeNs (&wait)[3],
                          const TimeNs (&leave)[3]) {
  TraceBuilder b(3);
  for (int t = 0; t < 3; ++t) {
    b.call(t, "upc_notify", notify[t], notify[t] + 1, "a.upc", 10);
    b.put(b.call(t, "upc_memput", notify[t] + 2, notify[t] + 3, "a.upc", 11), (t + 1) % 3, 8);
    b.collective(b.call(t, "upc_wait", wait[t], leave[t], "a.upc", 12), CollOp::Barrier);
  }
  return b.finish();
}

TEST(SplitPhaseBarrier, WaitsForTheLastNotifyNotTheLastWait) {
  // Thread 2 notifies last (at 300); thread 1, which notified early, enters upc_wait last (at
  // 500): a upc_wait waits only for thread 2's notify.
  const TimeNs notify[3] = {0, 100, 300}, wait[3] = {200, 500, 310}, leave[3] = {320, 510, 320};
  const Trace t = split_phase_barrier(notify, wait, leave);
  const auto found = find(kWaitAtBarrier, t);
  // Measured from the upc_wait Enters instead, thread 0 would idle 120 and thread 2 10.
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 100);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[0].detail.related_call, 0u);  // the upc_notify
}

TEST(SplitPhaseBarrier, UpcBarrierStaysABarrier) {
  TraceBuilder b(2);
  b.collective(b.call(0, "upc_barrier", 0, 510), CollOp::Barrier);
  b.collective(b.call(1, "upc_barrier", 500, 510), CollOp::Barrier);
  const auto found = find(kWaitAtBarrier, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].detail.related_call, kNone);
}

Trace all_alloc(const char* function, const TimeNs (&enter)[3], const TimeNs (&leave)[3]) {
  TraceBuilder b(3);
  for (int t = 0; t < 3; ++t)
    b.collective(b.call(t, function, enter[t], leave[t]), CollOp::CreateHandle, 0, 0);
  return b.finish();
}

TEST(UpcWaitAtAllAlloc, WaitForThreadZero) {
  const TimeNs enter[3] = {400, 0, 100}, leave[3] = {410, 420, 420};
  for (const char* function : {"upc_all_alloc", "upc_all_lock_alloc"}) {
    const auto found = find(kUpcWaitAtAllAlloc, all_alloc(function, enter, leave));
    ASSERT_EQ(found.size(), 2u) << function;
    EXPECT_EQ(found[0].rank, 1);
    EXPECT_EQ(found[0].idle, 400);
    EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
    EXPECT_EQ(found[1].idle, 300);
  }
}

TEST(UpcWaitAtAllAlloc, NotOtherHandleCreations) {
  const TimeNs enter[3] = {400, 0, 100}, leave[3] = {410, 420, 420};
  EXPECT_TRUE(find(kUpcWaitAtAllAlloc, all_alloc("MPI_Comm_dup", enter, leave)).empty());
}

}  // namespace
}  // namespace collwrap::testing
