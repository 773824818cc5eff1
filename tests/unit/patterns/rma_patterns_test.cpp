// MPI window synchronization wait states on hand-built event streams, as the tracer records them
// (one_sided.h): fences and window creation as RmaCollectiveEnd in regions of role RMA,
// post/start/complete/wait as RmaGroupSync naming the epoch's group, window locks per target.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

// One fence on three ranks: rank 2 enters 400 ns late; rank 0 put to rank 1 before.
Trace fence_epoch() {
  TraceBuilder b(3);
  b.role("MPI_Win_fence", RegionRole::Rma);
  for (int r = 0; r < 3; ++r) b.collective(b.call(r, "MPI_Win_fence", 0, 10), CollOp::Barrier);
  b.put(b.call(0, "MPI_Put", 20, 30), 1, 64);
  b.collective(b.call(0, "MPI_Win_fence", 100, 600), CollOp::Barrier);
  b.collective(b.call(1, "MPI_Win_fence", 100, 600), CollOp::Barrier);
  b.collective(b.call(2, "MPI_Win_fence", 500, 550), CollOp::Barrier);
  return b.finish();
}

TEST(RmaWaitAtFence, WaitForTheLastProcess) {
  const Trace t = fence_epoch();
  const auto found = find(kRmaWaitAtFence, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 400);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[1].rank, 1);
  EXPECT_EQ(found[1].idle, 400);
}

TEST(RmaWaitAtFence, NotABarrier) {
  const Trace t = fence_epoch();
  EXPECT_TRUE(find(kWaitAtBarrier, t).empty());
  EXPECT_TRUE(find(kBarrierCompletion, t).empty());
}

TEST(RmaEarlyFence, OnlyProcessesWithOperationsInTheEpoch) {
  const Trace t = fence_epoch();
  const auto found = find(kRmaEarlyFence, t);
  // Ranks 0 (origin) and 1 (target) stay 100 ns after rank 2 entered; rank 2 had no operation.
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 100);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[1].rank, 1);
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{0});
}

TEST(RmaWindow, WaitAtCreateAndFree) {
  TraceBuilder b(2);
  b.role("MPI_Win_create", RegionRole::Rma);
  b.role("MPI_Win_free", RegionRole::Rma);
  b.collective(b.call(0, "MPI_Win_create", 0, 300), CollOp::CreateHandle);
  b.collective(b.call(1, "MPI_Win_create", 250, 300), CollOp::CreateHandle);
  b.collective(b.call(0, "MPI_Win_free", 1000, 1100), CollOp::DestroyHandle);
  b.collective(b.call(1, "MPI_Win_free", 400, 1100), CollOp::DestroyHandle);
  const Trace t = b.finish();
  const auto create = find(kRmaWaitAtCreate, t);
  ASSERT_EQ(create.size(), 1u);
  EXPECT_EQ(create[0].rank, 0);
  EXPECT_EQ(create[0].idle, 250);
  const auto freed = find(kRmaWaitAtFree, t);
  ASSERT_EQ(freed.size(), 1u);
  EXPECT_EQ(freed[0].rank, 1);
  EXPECT_EQ(freed[0].idle, 600);
  EXPECT_EQ(freed[0].peers, std::vector<std::int32_t>{0});
}

// Origins 0 and 1 access target 2 (group {2}); target 2 exposes to {0, 1}. Target 2 posts at
// 500, both origins start at 520; origin 0 completes at 600 (its put ends at 550), origin 1
// completes at 900 (its put ends at 880); target 2 waits from 510 to 950.
Trace gats_epoch() {
  TraceBuilder b(3);
  const std::uint32_t target = b.comm({2}, "targets");
  const std::uint32_t origins = b.comm({0, 1}, "origins");
  b.group_sync(b.call(2, "MPI_Win_post", 500, 505), origins);
  b.group_sync(b.call(2, "MPI_Win_wait", 510, 950), origins);
  b.group_sync(b.call(0, "MPI_Win_start", 520, 530), target);
  b.put(b.call(0, "MPI_Put", 540, 550), 2, 8);
  b.group_sync(b.call(0, "MPI_Win_complete", 600, 700), target);
  b.group_sync(b.call(1, "MPI_Win_start", 520, 530), target);
  b.put(b.call(1, "MPI_Put", 870, 880), 2, 8);
  b.group_sync(b.call(1, "MPI_Win_complete", 900, 960), target);
  return b.finish();
}

TEST(RmaLatePost, CompleteWaitsForThePost) {
  TraceBuilder b(2);
  const std::uint32_t to1 = b.comm({1});
  const std::uint32_t from0 = b.comm({0});
  b.group_sync(b.call(0, "MPI_Win_start", 0, 10), to1);
  b.put(b.call(0, "MPI_Put", 20, 30), 1, 8);
  b.group_sync(b.call(0, "MPI_Win_complete", 40, 800), to1);
  b.group_sync(b.call(1, "MPI_Win_post", 700, 710), from0);
  b.group_sync(b.call(1, "MPI_Win_wait", 720, 810), from0);
  const Trace t = b.finish();
  const auto found = find(kRmaLatePost, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(t.regions[t.locations[0].call_region[found[0].call]].name, "MPI_Win_complete");
  EXPECT_EQ(found[0].idle, 660);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
}

TEST(RmaLatePost, StartThatBlocksIsReportedOnce) {
  TraceBuilder b(2);
  const std::uint32_t to1 = b.comm({1});
  const std::uint32_t from0 = b.comm({0});
  b.group_sync(b.call(0, "MPI_Win_start", 0, 710), to1);
  b.group_sync(b.call(0, "MPI_Win_complete", 720, 730), to1);
  b.group_sync(b.call(1, "MPI_Win_post", 700, 705), from0);
  b.group_sync(b.call(1, "MPI_Win_wait", 706, 740), from0);
  const Trace t = b.finish();
  const auto found = find(kRmaLatePost, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 700);
}

TEST(RmaLatePost, EpochsPairInOrderPerWindowAndPair) {
  // Two epochs in a row: the second start pairs with the second post (late), not the first.
  TraceBuilder b(2);
  const std::uint32_t to1 = b.comm({1});
  const std::uint32_t from0 = b.comm({0});
  b.group_sync(b.call(0, "MPI_Win_start", 0, 10), to1);
  b.group_sync(b.call(0, "MPI_Win_complete", 20, 30), to1);
  b.group_sync(b.call(0, "MPI_Win_start", 40, 50), to1);
  b.group_sync(b.call(0, "MPI_Win_complete", 60, 1000), to1);
  b.group_sync(b.call(1, "MPI_Win_post", 0, 5), from0);
  b.group_sync(b.call(1, "MPI_Win_wait", 6, 35), from0);
  b.group_sync(b.call(1, "MPI_Win_post", 900, 905), from0);
  b.group_sync(b.call(1, "MPI_Win_wait", 906, 1010), from0);
  const Trace t = b.finish();
  const auto found = find(kRmaLatePost, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 840);
}

TEST(RmaEarlyWait, WaitForTheLastComplete) {
  const Trace t = gats_epoch();
  const auto found = find(kRmaEarlyWait, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 2);
  EXPECT_EQ(found[0].idle, 390);  // 510 .. 900
  EXPECT_EQ(found[0].peers, (std::vector<std::int32_t>{1, 0}));
  EXPECT_TRUE(find(kRmaLatePost, t).empty());
}

TEST(RmaLateComplete, OnlyAfterTheLastOriginsLastTransfer) {
  const Trace t = gats_epoch();
  const auto found = find(kRmaLateComplete, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 2);
  EXPECT_EQ(found[0].idle, 20);  // 880 .. 900
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
}

// MPI window locks: the lock of target 1 on the window over comm 0.
TEST(LockContention, MpiExclusiveWindowLock) {
  TraceBuilder b(3);
  auto c = b.call(0, "MPI_Win_lock", 0, 10);
  b.lock(c, OpKind::RmaLockRequest, 1);
  b.lock(c, OpKind::RmaLockAcquire, 1);
  b.lock(b.call(0, "MPI_Win_unlock", 500, 510), OpKind::RmaLockRelease, 1);
  c = b.call(2, "MPI_Win_lock", 100, 520);
  b.lock(c, OpKind::RmaLockRequest, 1);
  b.lock(c, OpKind::RmaLockAcquire, 1);
  b.lock(b.call(2, "MPI_Win_unlock", 600, 610), OpKind::RmaLockRelease, 1);
  const Trace t = b.finish();
  const auto found = find(kLockContention, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 2);
  EXPECT_EQ(found[0].idle, 400);  // 100 .. 500 (the release is at the unlock's start)
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
}

TEST(LockContention, SharedLocksDoNotContendAndWindowsAreApart) {
  TraceBuilder b(3);
  const std::uint32_t other_window = b.comm({0, 1, 2});
  auto c = b.call(0, "MPI_Win_lock", 0, 10);
  b.lock(c, OpKind::RmaLockRequest, 1, true);
  b.lock(c, OpKind::RmaLockAcquire, 1, true);
  b.lock(b.call(0, "MPI_Win_unlock", 500, 510), OpKind::RmaLockRelease, 1);
  c = b.call(2, "MPI_Win_lock", 100, 200);  // shared as well: no contention
  b.lock(c, OpKind::RmaLockRequest, 1, true);
  b.lock(c, OpKind::RmaLockAcquire, 1, true);
  b.lock(b.call(2, "MPI_Win_unlock", 300, 310), OpKind::RmaLockRelease, 1);
  c = b.call(1, "MPI_Win_lock", 100, 200);  // exclusive, but on another window
  b.lock(c, OpKind::RmaLockRequest, 1, false, other_window);
  b.lock(c, OpKind::RmaLockAcquire, 1, false, other_window);
  b.lock(b.call(1, "MPI_Win_unlock", 300, 310), OpKind::RmaLockRelease, 1, false, other_window);
  c = b.call(1, "MPI_Win_lock", 400, 520);  // exclusive on the first window: waits for rank 0
  b.lock(c, OpKind::RmaLockRequest, 1);
  b.lock(c, OpKind::RmaLockAcquire, 1);
  b.lock(b.call(1, "MPI_Win_unlock", 600, 610), OpKind::RmaLockRelease, 1);
  const Trace t = b.finish();
  const auto found = find(kLockContention, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 100);  // 400 .. 500
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
}

}  // namespace
}  // namespace collwrap::testing
