// early_wait: End(wait) − Start(wait) on nonblocking requests, with Akopyan and
// Andreev's optimal distance.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

TEST(EarlyWait, ReceiverSideWithOptimalDistance) {
  TraceBuilder b(2);
  b.irecv_request(b.call(0, "MPI_Irecv", 100, 110, "app.c", 10), 1);
  b.irecv(b.call(0, "MPI_Wait", 120, 1000, "app.c", 11), 1, 0, 8, 1);
  b.send(b.call(1, "MPI_Send", 900, 910), 0, 0, 8);
  const auto found = find(kEarlyWait, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 1u);
  EXPECT_EQ(found[0].idle, 880);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].detail.related_call, 0u);
  // The peer started 800 after the Irecv, the Irecv took 10, the transfer 100 (900 → 1000).
  EXPECT_EQ(found[0].detail.optimal_distance, 800 + 10 + 100);
  EXPECT_EQ(found[0].detail.actual_distance, 20);
}

TEST(EarlyWait, PeerStartedFirst) {
  TraceBuilder b(2);
  b.send(b.call(1, "MPI_Send", 50, 60), 0, 0, 8);
  b.irecv_request(b.call(0, "MPI_Irecv", 100, 110), 1);
  b.irecv(b.call(0, "MPI_Wait", 120, 200), 1, 0, 8, 1);
  const auto found = find(kEarlyWait, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].detail.optimal_distance, 10 + 80);  // ΔT_i + T_send, no peer delay
}

// Rank 0 starts a send with `function` and waits for it; rank 1 receives late.
Trace sender_side(const std::string& function, std::uint64_t bytes) {
  TraceBuilder b(2);
  b.isend(b.call(0, function, 100, 110), 1, 0, bytes, 1);
  b.isend_complete(b.call(0, "MPI_Wait", 120, 1000), 1);
  b.recv(b.call(1, "MPI_Recv", 800, 1000), 0, 0, bytes);
  return b.finish();
}

TEST(EarlyWait, SenderSideOnlyWhenTheSendNeedsTheReceiver) {
  EXPECT_EQ(find(kEarlyWait, sender_side("MPI_Isend", 1 << 20)).size(), 1u);
  EXPECT_EQ(find(kEarlyWait, sender_side("MPI_Issend", 8)).size(), 1u);
  EXPECT_EQ(find(kEarlyWait, sender_side("MPI_Irsend", 1 << 20)).size(), 1u);
  EXPECT_TRUE(find(kEarlyWait, sender_side("MPI_Isend", 8)).empty());
  EXPECT_TRUE(find(kEarlyWait, sender_side("MPI_Isend", kSharedMemoryEagerBytes)).empty());
  EXPECT_TRUE(find(kEarlyWait, sender_side("MPI_Ibsend", 1 << 20)).empty());
}

TEST(EarlyWait, TestLoopCountsFromItsFirstTest) {
  TraceBuilder b(2);
  b.irecv_request(b.call(0, "MPI_Irecv", 100, 110), 1);
  b.call(0, "MPI_Test", 200, 210);
  b.call(0, "MPI_Test", 250, 260);
  b.irecv(b.call(0, "MPI_Test", 300, 310), 1, 0, 8, 1);
  b.send(b.call(1, "MPI_Send", 290, 295), 0, 0, 8);
  const auto found = find(kEarlyWait, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 3u);
  EXPECT_EQ(found[0].idle, 110);
}

TEST(EarlyWait, TestsFarApartAreNotOneLoop) {
  TraceBuilder b(2);
  b.irecv_request(b.call(0, "MPI_Irecv", 100, 110), 1);
  b.call(0, "MPI_Test", 200, 210);  // then 1 ms of work
  b.irecv(b.call(0, "MPI_Test", 1'000'210, 1'000'230), 1, 0, 8, 1);
  b.send(b.call(1, "MPI_Send", 150, 160), 0, 0, 8);
  const auto found = find(kEarlyWait, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 20);
}

TEST(EarlyWait, WaitallOverMixedRequestsNamesThePeersThatMatter) {
  TraceBuilder b(3);
  b.isend(b.call(0, "MPI_Isend", 100, 110), 1, 0, 8, 1);  // eager: not waited for
  b.irecv_request(b.call(0, "MPI_Irecv", 120, 130), 2);
  const auto all = b.call(0, "MPI_Waitall", 200, 1000);
  b.isend_complete(all, 1);
  b.irecv(all, 2, 0, 8, 2);
  b.recv(b.call(1, "MPI_Recv", 150, 160), 0, 0, 8);
  b.send(b.call(2, "MPI_Send", 900, 910), 0, 0, 8);
  const auto found = on_rank(find(kEarlyWait, b.finish()), 0);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[0].detail.related_call, 1u);
}

TEST(EarlyWait, PersistentReceive) {
  TraceBuilder b(2);
  b.irecv_request(b.call(0, "MPI_Start", 100, 110), 7);
  b.irecv(b.call(0, "MPI_Wait", 120, 900), 1, 0, 8, 7);
  b.send(b.call(1, "MPI_Send", 800, 810), 0, 0, 8);
  const auto found = find(kEarlyWait, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].detail.related_call, 0u);
}

TEST(EarlyWait, NonblockingCollectivesAreNotPointToPointWaits) {
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) {
    b.nbc_request(b.call(r, "MPI_Iallreduce", 100, 110), 1);
    b.nbc_complete(b.call(r, "MPI_Wait", 200 + 300 * r, 900), CollOp::Allreduce, 1);
  }
  EXPECT_TRUE(find(kEarlyWait, b.finish()).empty());
}

}  // namespace
}  // namespace collwrap::testing
