// MPI one-sided communication: the records of window creation, fences, locks and transfers, and
// the keys that name windows and synchronization groups alike on every process.
#include "mpi/one_sided.h"

#include <gtest/gtest.h>

#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;
using Kind = testing::Record::Kind;

class OneSided : public ::testing::Test, public testing::SemanticsFixture {
 protected:
  // A window over MPI_COMM_WORLD; each test uses its own handle (the registry is per process).
  WindowRef create(MPI_Win win) {
    Tracing c = tracing();
    c.entered = 10;
    c.left = 20;
    handle_win_collective_begin(c);
    handle_win_created(c, MPI_SUCCESS, MPI_COMM_WORLD, &win);
    return windows().find(win)->ref;
  }
  Tracing at(Ticks entered, Ticks left) {
    Tracing c = tracing();
    c.entered = entered;
    c.left = left;
    return c;
  }
};

TEST(WindowKeys, SameInputsSameKeyOtherwiseDifferent) {
  EXPECT_EQ(window_key(42, 0), window_key(42, 0));
  EXPECT_NE(window_key(42, 0), window_key(42, 1));
  EXPECT_NE(window_key(42, 0), window_key(43, 0));
  EXPECT_EQ(sync_group_key({0, 2}), sync_group_key({0, 2}));
  EXPECT_NE(sync_group_key({0, 2}), sync_group_key({2, 0}));
  EXPECT_NE(sync_group_key({0}), sync_group_key({0, 0}));
}

TEST_F(OneSided, CreationIsACollectiveOverTheWindow) {
  const WindowRef win = create(fake_handle<MPI_Win>(1));
  ASSERT_EQ(records().size(), 3u);
  EXPECT_EQ(records()[0].kind, Kind::RmaCollectiveBegin);
  EXPECT_EQ(records()[0].time, 10u);
  EXPECT_EQ(records()[1].kind, Kind::RmaWinCreate);
  EXPECT_EQ(records()[1].comm, win);
  EXPECT_EQ(records()[2].kind, Kind::RmaCollectiveEnd);
  EXPECT_EQ(records()[2].op, CollectiveOp::CreateHandle);
  EXPECT_EQ(records()[2].time, 20u);
}

TEST_F(OneSided, WindowsOnOneCommunicatorGetDistinctKeys) {
  create(fake_handle<MPI_Win>(2));
  create(fake_handle<MPI_Win>(3));
  const AdapterDefinitions d = windows().snapshot();
  ASSERT_GE(d.windows.size(), 2u);
  for (std::size_t i = 0; i < d.windows.size(); ++i) {
    EXPECT_EQ(d.windows[i].group, world().ref);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(d.windows[i].key, d.windows[j].key);
  }
}

TEST_F(OneSided, FenceLockTransfersUnlockFree) {
  MPI_Win handle = fake_handle<MPI_Win>(4);
  const WindowRef win = create(handle);
  const std::size_t first = records().size();
  handle_win_collective_begin(at(30, 40));
  handle_win_fence(at(30, 40), MPI_SUCCESS, handle);
  handle_win_lock(at(50, 60), MPI_SUCCESS, MPI_LOCK_EXCLUSIVE, 3, handle);
  handle_rma(at(70, 71), MPI_SUCCESS, RmaTransfer::Put, 2, MPI_DOUBLE, 0, 3, handle);
  handle_rma(at(72, 73), MPI_SUCCESS, RmaTransfer::Atomic, 1, MPI_INT, 1, 3, handle);
  handle_rma(at(74, 75), MPI_SUCCESS, RmaTransfer::Get, 0, MPI_INT, 5, MPI_PROC_NULL, handle);
  handle_win_unlock(at(80, 90), MPI_SUCCESS, 3, handle);
  WindowEntry* freed = handle_win_free_begin(at(100, 110), &handle);
  handle_win_freed(at(100, 110), MPI_SUCCESS, freed);
  EXPECT_EQ(windows().find(handle), nullptr);

  const std::vector<testing::Record> r(records().begin() + first, records().end());
  ASSERT_EQ(r.size(), 12u);
  EXPECT_EQ(r[1].kind, Kind::RmaCollectiveEnd);
  EXPECT_EQ(r[1].op, CollectiveOp::Barrier);
  // The lock of target 3: requested at the call's start, acquired at its end.
  EXPECT_EQ(r[2].kind, Kind::RmaRequestLock);
  EXPECT_EQ(r[2].time, 50u);
  EXPECT_EQ(r[2].tag, 3u);
  EXPECT_EQ(r[2].bytes, std::uint64_t(RmaLockType::Exclusive));
  EXPECT_EQ(r[3].kind, Kind::RmaAcquireLock);
  EXPECT_EQ(r[3].time, 60u);
  EXPECT_EQ(r[4].kind, Kind::RmaPut);
  EXPECT_EQ(r[4].peer, 3u);
  EXPECT_EQ(r[4].bytes, 16u);
  EXPECT_EQ(r[4].comm, win);
  EXPECT_EQ(r[5].kind, Kind::RmaOpCompleteNonBlocking);
  EXPECT_EQ(r[5].request, r[4].request);
  EXPECT_EQ(r[6].kind, Kind::RmaAtomic);
  EXPECT_EQ(r[6].bytes, 4u);
  EXPECT_EQ(r[6].received, 4u);
  // The get to MPI_PROC_NULL moved nothing and left no record.
  EXPECT_EQ(r[8].kind, Kind::RmaReleaseLock);
  EXPECT_EQ(r[8].tag, 3u);
  EXPECT_EQ(r[9].kind, Kind::RmaCollectiveBegin);
  EXPECT_EQ(r[10].kind, Kind::RmaCollectiveEnd);
  EXPECT_EQ(r[10].op, CollectiveOp::DestroyHandle);
  EXPECT_EQ(r[11].kind, Kind::RmaWinDestroy);
  EXPECT_EQ(r[11].comm, win);
}

TEST_F(OneSided, UnknownWindowAndFailedCallsRecordNothing) {
  MPI_Win handle = fake_handle<MPI_Win>(5);
  handle_win_fence(at(1, 2), MPI_SUCCESS, handle);
  handle_win_lock_all(at(1, 2), MPI_SUCCESS, handle);
  create(handle);
  const std::size_t first = records().size();
  handle_win_fence(at(1, 2), MPI_ERR_WIN, handle);
  handle_rma(at(1, 2), MPI_ERR_RANK, RmaTransfer::Put, 1, MPI_INT, 0, 1, handle);
  EXPECT_EQ(records().size(), first);
}

TEST_F(OneSided, LockAllIsASharedLockOfEveryTarget) {
  MPI_Win handle = fake_handle<MPI_Win>(6);
  create(handle);
  const std::size_t first = records().size();
  handle_win_lock_all(at(1, 2), MPI_SUCCESS, handle);
  handle_win_unlock_all(at(3, 4), MPI_SUCCESS, handle);
  ASSERT_EQ(records().size(), first + 3);
  EXPECT_EQ(records()[first].bytes, std::uint64_t(RmaLockType::Shared));
  EXPECT_EQ(records()[first].peer, kUndefinedRank);
  EXPECT_EQ(records()[first + 2].tag, std::uint32_t(kAllTargetsLock));
}

}  // namespace
}  // namespace collwrap::tracer
