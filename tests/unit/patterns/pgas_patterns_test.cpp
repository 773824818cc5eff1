// One-sided (PGAS) wait states on hand-built OpenSHMEM event streams: barriers and broadcasts
// read from RmaCollectiveEnd, lock contention, late_wait_until and frequent small transfers.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

constexpr std::uint64_t kLock = 0x1234'0000'0040ull;

TEST(PgasCollectives, ShmemBarrierAllIsABarrier) {
  TraceBuilder b(3);
  b.collective(b.call(0, "shmem_barrier_all", 0, 510), CollOp::Barrier);
  b.collective(b.call(1, "shmem_barrier_all", 100, 510), CollOp::Barrier);
  b.collective(b.call(2, "shmem_barrier_all", 500, 520), CollOp::Barrier);
  const Trace t = b.finish();
  const auto found = find(kWaitAtBarrier, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[1].idle, 400);
}

TEST(PgasCollectives, LateRootOfShmemBroadcast) {
  TraceBuilder b(3);
  b.collective(b.call(0, "shmem_broadcast64", 300, 310), CollOp::Bcast, 0, 0, 256, 0);
  b.collective(b.call(1, "shmem_broadcast64", 0, 320), CollOp::Bcast, 0, 0, 0, 128);
  b.collective(b.call(2, "shmem_broadcast64", 100, 320), CollOp::Bcast, 0, 0, 0, 128);
  const Trace t = b.finish();
  const auto found = find(kLateBroadcast, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].idle, 200);
}

// PE 0 holds the lock 100..600; PE 1 requests at 150 and gets it at 610, holds it to 700;
// PE 2 requests at 200 and gets it at 710.
Trace contended_lock() {
  TraceBuilder b(3);
  auto c = b.call(0, "shmem_set_lock", 90, 100);
  b.lock(c, OpKind::RmaLockRequest, kLock);
  b.lock(c, OpKind::RmaLockAcquire, kLock);
  b.lock(b.call(0, "shmem_clear_lock", 600, 601), OpKind::RmaLockRelease, kLock);
  c = b.call(1, "shmem_set_lock", 150, 610);
  b.lock(c, OpKind::RmaLockRequest, kLock);
  b.lock(c, OpKind::RmaLockAcquire, kLock);
  b.lock(b.call(1, "shmem_clear_lock", 700, 701), OpKind::RmaLockRelease, kLock);
  c = b.call(2, "shmem_set_lock", 200, 710);
  b.lock(c, OpKind::RmaLockRequest, kLock);
  b.lock(c, OpKind::RmaLockAcquire, kLock);
  b.lock(b.call(2, "shmem_clear_lock", 720, 721), OpKind::RmaLockRelease, kLock);
  return b.finish();
}

TEST(LockContention, WaitWhileOthersHoldTheLock) {
  const Trace t = contended_lock();
  const auto found = find(kLockContention, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 450);  // 150..600 under PE 0's hold
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].rank, 2);
  EXPECT_EQ(found[1].idle, 400 + 90);  // 200..600 under PE 0, 610..700 under PE 1
  EXPECT_EQ(found[1].peers, (std::vector<std::int32_t>{0, 1}));
}

TEST(LockContention, DifferentLocksDoNotContend) {
  TraceBuilder b(2);
  auto c = b.call(0, "shmem_set_lock", 0, 10);
  b.lock(c, OpKind::RmaLockRequest, kLock);
  b.lock(c, OpKind::RmaLockAcquire, kLock);
  b.lock(b.call(0, "shmem_clear_lock", 500, 501), OpKind::RmaLockRelease, kLock);
  c = b.call(1, "shmem_set_lock", 20, 30);
  b.lock(c, OpKind::RmaLockRequest, kLock + 8);
  b.lock(c, OpKind::RmaLockAcquire, kLock + 8);
  b.lock(b.call(1, "shmem_clear_lock", 40, 41), OpKind::RmaLockRelease, kLock + 8);
  EXPECT_TRUE(find(kLockContention, b.finish()).empty());
}

TEST(LateWaitUntil, ReleasedByTheLastPutToTheWaiter) {
  TraceBuilder b(3);
  b.put(b.call(2, "shmem_long_p", 50, 52), 0, 8);  // before the wait: not the release
  b.put(b.call(1, "shmem_long_p", 400, 402), 0, 8);
  b.put(b.call(2, "shmem_long_p", 900, 902), 0, 8);  // after the wait ended
  b.wait_change(b.call(0, "shmem_long_wait_until", 100, 410));
  const Trace t = b.finish();
  const auto found = find(kLateWaitUntil, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
}

TEST(LateWaitUntil, AnAtomicReleasesToo) {
  TraceBuilder b(2);
  b.atomic(b.call(1, "shmem_long_atomic_add", 250, 260), 0, 8, 0);
  b.wait_change(b.call(0, "shmem_long_wait_until", 0, 270));
  const auto found = find(kLateWaitUntil, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 250);
}

TEST(LateWaitUntil, NoWaitWhenTheDataWasThereBefore) {
  TraceBuilder b(2);
  b.put(b.call(1, "shmem_long_p", 10, 12), 0, 8);
  b.wait_change(b.call(0, "shmem_long_wait_until", 100, 101));
  EXPECT_TRUE(find(kLateWaitUntil, b.finish()).empty());
}

TEST(FrequentSmallCommunication, CountsAndBytesPerSiteAndTarget) {
  TraceBuilder b(3);
  for (int i = 0; i < 150; ++i) {
    b.put(b.call(0, "shmem_long_p", 10 * i, 10 * i + 2, "a.c", 7), 1, 8);
    if (i < 99) b.put(b.call(0, "shmem_long_p", 10 * i + 5, 10 * i + 6, "a.c", 7), 2, 8);
  }
  b.put(b.call(0, "shmem_putmem", 5000, 5100, "a.c", 9), 1, 8000);
  const Trace t = b.finish();
  const auto found = find(kFrequentSmallCommunication, t);
  ASSERT_EQ(found.size(), 1u);  // 99 transfers to PE 2 are too few, the 8000-byte put too large
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[0].detail.transfers, 150u);
  EXPECT_EQ(found[0].detail.transfer_bytes, 1200u);
}

}  // namespace
}  // namespace collwrap::testing

namespace collwrap::testing {
namespace {

TEST(MemorySyncWait, QuietWaitsForTheOutstandingTargets) {
  TraceBuilder b(3);
  b.put(b.call(0, "shmem_putmem_nbi", 0, 10), 2, 1 << 20);
  b.put(b.call(0, "shmem_putmem_nbi", 20, 30), 1, 1 << 20);
  auto quiet = b.call(0, "shmem_quiet", 40, 540);
  b.memory_sync(quiet);
  b.put(b.call(0, "shmem_putmem_nbi", 600, 610), 1, 8);
  b.memory_sync(b.call(0, "shmem_quiet", 620, 630));
  const auto found = find(kMemorySyncWait, b.finish());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].peers, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(found[1].idle, 10);
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{1});
}

}  // namespace
}  // namespace collwrap::testing
