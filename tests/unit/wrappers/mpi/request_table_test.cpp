// RequestTable: fresh ids per post and per start, handle reuse, persistent restarts.
#include "mpi/request_table.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;

TrackedRequest send_to(std::uint32_t peer) {
  TrackedRequest r;
  r.kind = RequestKind::Send;
  r.peer = peer;
  r.bytes = 8;
  return r;
}

TEST(RequestTable, PostsGetDistinctIncreasingIds) {
  RequestTable table;
  const RequestId a = table.post(fake_handle<MPI_Request>(1), send_to(1));
  const RequestId b = table.post(fake_handle<MPI_Request>(2), send_to(2));
  EXPECT_NE(a, 0u);
  EXPECT_LT(a, b);
  EXPECT_EQ(table.size(), 2u);
  ASSERT_TRUE(table.find(fake_handle<MPI_Request>(2)));
  EXPECT_EQ(table.find(fake_handle<MPI_Request>(2))->peer, 2u);
  EXPECT_TRUE(table.find(fake_handle<MPI_Request>(2))->active);
}

TEST(RequestTable, FinishRemovesANonPersistentRequest) {
  RequestTable table;
  const MPI_Request h = fake_handle<MPI_Request>(1);
  const RequestId id = table.post(h, send_to(1));
  table.finish(h, id);
  EXPECT_FALSE(table.find(h));
  EXPECT_EQ(table.size(), 0u);
}

TEST(RequestTable, ReusedHandleGetsANewIdAndAStaleFinishLeavesItAlone) {
  RequestTable table;
  const MPI_Request h = fake_handle<MPI_Request>(1);
  const RequestId first = table.post(h, send_to(1));
  table.finish(h, first);
  const RequestId second = table.post(h, send_to(2));  // MPI handed out the same handle again
  EXPECT_NE(first, second);
  table.finish(h, first);  // a late finish of the old communication
  ASSERT_TRUE(table.find(h));
  EXPECT_EQ(table.find(h)->id, second);
  EXPECT_EQ(table.find(h)->peer, 2u);
}

TEST(RequestTable, SharedHandleKeepsEveryRequestOldestFirst) {
  // Open MPI returns one shared handle for sends it completed inline.
  RequestTable table;
  const MPI_Request shared = fake_handle<MPI_Request>(1);
  const RequestId first = table.post(shared, send_to(1));
  const RequestId second = table.post(shared, send_to(2));
  const RequestId third = table.post(shared, send_to(3));
  EXPECT_EQ(table.size(), 3u);

  std::vector<RequestId> visited;
  table.visit_active(shared, 2, [&](std::size_t k, const TrackedRequest& r) {
    EXPECT_EQ(k, visited.size());
    visited.push_back(r.id);
  });
  EXPECT_EQ(visited, (std::vector<RequestId>{first, second}));

  table.finish(shared, second);
  EXPECT_EQ(table.find(shared)->id, first);
  table.forget(shared);  // MPI_Request_free drops the oldest
  EXPECT_EQ(table.find(shared)->id, third);
}

TEST(RequestTable, PersistentRequestReplacesEntriesLeftUnderItsHandle) {
  RequestTable table;
  const MPI_Request h = fake_handle<MPI_Request>(2);
  table.post(h, send_to(1));  // a completion the tracer never saw
  table.add_persistent(h, send_to(2));
  EXPECT_EQ(table.size(), 1u);
  EXPECT_TRUE(table.find(h)->persistent);
}

TEST(RequestTable, PersistentRequestGetsAFreshIdAtEveryStartAndStaysUntilForgotten) {
  RequestTable table;
  const MPI_Request h = fake_handle<MPI_Request>(3);
  table.add_persistent(h, send_to(1));
  ASSERT_TRUE(table.find(h));
  EXPECT_FALSE(table.find(h)->active);

  const auto first = table.start(h);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->active);
  EXPECT_TRUE(first->persistent);
  table.finish(h, first->id);
  ASSERT_TRUE(table.find(h));  // inactive, not removed
  EXPECT_FALSE(table.find(h)->active);

  const auto second = table.start(h);
  ASSERT_TRUE(second);
  EXPECT_NE(first->id, second->id);
  table.finish(h, second->id);

  table.forget(h);
  EXPECT_FALSE(table.find(h));
  EXPECT_FALSE(table.start(h));
}

TEST(RequestTable, StartIgnoresUnknownAndNonPersistentRequests) {
  RequestTable table;
  const MPI_Request h = fake_handle<MPI_Request>(4);
  EXPECT_FALSE(table.start(h));
  const RequestId id = table.post(h, send_to(1));
  EXPECT_FALSE(table.start(h));
  EXPECT_EQ(table.find(h)->id, id);
}

TEST(RequestTable, IdsStayUniqueUnderConcurrentPosts) {
  RequestTable table;
  constexpr int kThreads = 4, kPerThread = 2000;
  std::vector<std::vector<RequestId>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const MPI_Request h = fake_handle<MPI_Request>(static_cast<std::uintptr_t>(t) * 100000 + i);
        const RequestId id = table.post(h, send_to(0));
        ids[static_cast<std::size_t>(t)].push_back(id);
        if (i % 2 == 0) table.finish(h, id);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<RequestId> all;
  for (const auto& list : ids) all.insert(list.begin(), list.end());
  EXPECT_EQ(all.size(), std::size_t{kThreads} * kPerThread);
  EXPECT_EQ(table.size(), std::size_t{kThreads} * kPerThread / 2);
}

}  // namespace
}  // namespace collwrap::tracer
