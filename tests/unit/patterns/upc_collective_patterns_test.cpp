// The UPC relocalization collectives on hand-built event streams: upc_sync_on_entry,
// upc_sync_on_exit and upc_wait_inside_collective from the UPC_IN_*/UPC_OUT_* modes, and the
// family rules (late_broadcast, early_reduce, wait_at_nxn) that report the entry wait only
// under UPC_IN_MYSYNC.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

// One upc_all_* collective over 3 threads entering at enter[] and leaving at leave[].
Trace upc_collective(const char* function, CollOp op, int root, UpcSync entry, UpcSync exit,
                     const TimeNs (&enter)[3], const TimeNs (&leave)[3]) {
  TraceBuilder b(3);
  for (int r = 0; r < 3; ++r) {
    const CallRef c = b.call(r, function, enter[r], leave[r]);
    b.upc_sync(c, b.collective(c, op, 0, root, 64, 64), entry, exit);
  }
  return b.finish();
}

// Thread 0, the broadcast's source, enters 300 ns after thread 1 and 200 ns after thread 2.
constexpr TimeNs kLateRootEnter[3] = {300, 0, 100};
constexpr TimeNs kLeave[3] = {400, 400, 400};

TEST(UpcSyncOnEntry, AllSyncWaitsForTheLastThread) {
  const Trace t = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, UpcSync::All, UpcSync::No,
                                 kLateRootEnter, kLeave);
  const auto found = find(kUpcSyncOnEntry, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].rank, 2);
  EXPECT_EQ(found[1].idle, 200);
  // The same wait is not also a late broadcast.
  EXPECT_TRUE(find(kLateBroadcast, t).empty());
  EXPECT_TRUE(find(kUpcSyncOnExit, t).empty());
}

TEST(UpcSyncOnEntry, NoEntryWaitWithoutAllSync) {
  for (const UpcSync entry : {UpcSync::No, UpcSync::My}) {
    const Trace t = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, entry, UpcSync::No,
                                   kLateRootEnter, kLeave);
    EXPECT_TRUE(find(kUpcSyncOnEntry, t).empty());
  }
}

TEST(UpcSyncOnEntry, NotForMpiOrShmemCollectives) {
  TraceBuilder b(3);
  for (int r = 0; r < 3; ++r)
    b.collective(b.call(r, "shmem_broadcast64", kLateRootEnter[r], kLeave[r]), CollOp::Bcast, 0, 0,
                 64, 64);
  const Trace t = b.finish();
  EXPECT_TRUE(find(kUpcSyncOnEntry, t).empty());
  EXPECT_EQ(find(kLateBroadcast, t).size(), 2u);
}

TEST(UpcEntryModes, MySyncLeavesTheWaitToTheFamilyRule) {
  const Trace t = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, UpcSync::My, UpcSync::No,
                                 kLateRootEnter, kLeave);
  const auto found = find(kLateBroadcast, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].idle, 300);
}

TEST(UpcEntryModes, NoSyncHasNoEntryWaitToBlame) {
  const Trace bcast = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, UpcSync::No,
                                     UpcSync::No, kLateRootEnter, kLeave);
  EXPECT_TRUE(find(kLateBroadcast, bcast).empty());
  const TimeNs late_contributor[3] = {0, 0, 300};
  const Trace gather = upc_collective("upc_all_gather", CollOp::Gather, 0, UpcSync::No, UpcSync::No,
                                      late_contributor, kLeave);
  EXPECT_TRUE(find(kEarlyReduce, gather).empty());
  const Trace exchange = upc_collective("upc_all_exchange", CollOp::Alltoall, kNoWorldRank,
                                        UpcSync::No, UpcSync::No, late_contributor, kLeave);
  EXPECT_TRUE(find(kWaitAtNxN, exchange).empty());
}

TEST(UpcSyncOnExit, NoSyncEntryLeavesTheWholeWaitToTheExit) {
  const Trace t = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, UpcSync::No, UpcSync::All,
                                 kLateRootEnter, kLeave);
  const auto found = find(kUpcSyncOnExit, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].idle, 200);
}

TEST(UpcSyncOnExit, MySyncEntryKeepsItsOwnPart) {
  // Gather to thread 0, thread 2 enters last at 300: under UPC_IN_MYSYNC the root's wait for it
  // is early_reduce's; the exit (UPC_OUT_ALLSYNC) keeps thread 1's wait only.
  const TimeNs enter[3] = {0, 100, 300};
  const Trace t =
      upc_collective("upc_all_gather", CollOp::Gather, 0, UpcSync::My, UpcSync::All, enter, kLeave);
  const auto found = find(kUpcSyncOnExit, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 200);
  EXPECT_EQ(find(kEarlyReduce, t).size(), 1u);
}

TEST(UpcSyncOnExit, AllSyncEntryLeavesNothingToTheExit) {
  const Trace t = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, UpcSync::All, UpcSync::All,
                                 kLateRootEnter, kLeave);
  EXPECT_TRUE(find(kUpcSyncOnExit, t).empty());
  EXPECT_EQ(find(kUpcSyncOnEntry, t).size(), 2u);
}

TEST(UpcSyncOnExit, MySyncExitSynchronizesOnlyManyToMany) {
  const TimeNs enter[3] = {0, 100, 300};
  const Trace exchange = upc_collective("upc_all_exchange", CollOp::Alltoall, kNoWorldRank,
                                        UpcSync::No, UpcSync::My, enter, kLeave);
  const auto found = find(kUpcSyncOnExit, exchange);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[1].idle, 200);
  EXPECT_EQ(found[1].peers, std::vector<std::int32_t>{2});
  const Trace bcast = upc_collective("upc_all_broadcast", CollOp::Bcast, 0, UpcSync::No,
                                     UpcSync::My, kLateRootEnter, kLeave);
  EXPECT_TRUE(find(kUpcSyncOnExit, bcast).empty());
}

TEST(UpcWaitInsideCollective, AfterTheFirstThreadLeftAnAllSyncExit) {
  // Everyone entered by 100; thread 0 leaves at 400, threads 1 and 2 at 700 and 500.
  const TimeNs enter[3] = {0, 100, 50};
  const TimeNs leave[3] = {400, 700, 500};
  const Trace t = upc_collective("upc_all_scatter", CollOp::Scatter, 0, UpcSync::My, UpcSync::All,
                                 enter, leave);
  const auto found = find(kUpcWaitInsideCollective, t);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rank, 1);
  EXPECT_EQ(found[0].idle, 300);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{0});
  EXPECT_EQ(found[1].idle, 100);
}

TEST(UpcWaitInsideCollective, OnlyWithAnAllSyncExitAndNotManyToMany) {
  const TimeNs enter[3] = {0, 100, 50};
  const TimeNs leave[3] = {400, 700, 500};
  for (const UpcSync exit : {UpcSync::No, UpcSync::My})
    EXPECT_TRUE(find(kUpcWaitInsideCollective, upc_collective("upc_all_scatter", CollOp::Scatter, 0,
                                                              UpcSync::My, exit, enter, leave))
                    .empty());
  const Trace exchange = upc_collective("upc_all_exchange", CollOp::Alltoall, kNoWorldRank,
                                        UpcSync::My, UpcSync::All, enter, leave);
  EXPECT_TRUE(find(kUpcWaitInsideCollective, exchange).empty());
  EXPECT_EQ(find(kNxNCompletion, exchange).size(), 2u);
}

}  // namespace
}  // namespace collwrap::testing
