// late_receiver: min(Enter_recv_post, Exit_send) − Enter_send for sends that need the receiver.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

// Rank 0 sends `bytes` with `function` during [100, 1000]; rank 1 posts its receive at 700.
Trace late_receive_of(const std::string& function, std::uint64_t bytes) {
  TraceBuilder b(2);
  b.send(b.call(0, function, 100, 1000, "app.c", 12), 1, 0, bytes);
  b.recv(b.call(1, "MPI_Recv", 700, 1000), 0, 0, bytes);
  return b.finish();
}

TEST(LateReceiver, SynchronousSendWaitsEvenWhenSmall) {
  const auto found = find(kLateReceiver, late_receive_of("MPI_Ssend", 8));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].idle, 600);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].detail.send_mode, SendMode::Synchronous);
}

TEST(LateReceiver, StandardSendAboveTheSharedMemoryThreshold) {
  EXPECT_EQ(find(kLateReceiver, late_receive_of("MPI_Send", kSharedMemoryEagerBytes + 1)).size(),
            1u);
}

TEST(LateReceiver, ExactlyAtTheThresholdIsEager) {
  EXPECT_TRUE(find(kLateReceiver, late_receive_of("MPI_Send", kSharedMemoryEagerBytes)).empty());
  EXPECT_TRUE(find(kLateReceiver, late_receive_of("MPI_Send", 0)).empty());
}

TEST(LateReceiver, ExplicitThresholdOverridesTheDefault) {
  RuleOptions options;
  options.eager_threshold = 100;
  EXPECT_EQ(find(kLateReceiver, late_receive_of("MPI_Send", 101), options).size(), 1u);
  EXPECT_TRUE(find(kLateReceiver, late_receive_of("MPI_Send", 100), options).empty());
}

TEST(LateReceiver, BetweenNodesTheNetworkThresholdApplies) {
  for (const std::uint64_t bytes : {std::uint64_t{8000}, kNetworkEagerBytes + 1}) {
    Trace t = late_receive_of("MPI_Send", bytes);
    t.nodes.push_back("node1");
    t.locations[1].node = 1;
    EXPECT_EQ(find(kLateReceiver, t).size(), bytes > kNetworkEagerBytes ? 1u : 0u) << bytes;
  }
}

TEST(LateReceiver, ReadySendAboveThreshold) {
  const auto found = find(kLateReceiver, late_receive_of("MPI_Rsend", 1 << 20));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].detail.send_mode, SendMode::Ready);
}

TEST(LateReceiver, BufferedSendIsAlwaysLocal) {
  EXPECT_TRUE(find(kLateReceiver, late_receive_of("MPI_Bsend", 1 << 20)).empty());
}

TEST(LateReceiver, ReceivePostedInTimeIsNoWait) {
  TraceBuilder b(2);
  b.irecv_request(b.call(1, "MPI_Irecv", 50, 60), 3);
  b.send(b.call(0, "MPI_Ssend", 100, 200), 1, 0, 8);
  b.irecv(b.call(1, "MPI_Wait", 70, 200), 0, 0, 8, 3);
  EXPECT_TRUE(find(kLateReceiver, b.finish()).empty());
}

TEST(LateReceiver, WaitOnALargeIsend) {
  TraceBuilder b(2);
  b.isend(b.call(0, "MPI_Isend", 100, 110), 1, 0, 1 << 20, 5);
  b.isend_complete(b.call(0, "MPI_Wait", 200, 1000, "app.c", 40), 5);
  b.recv(b.call(1, "MPI_Recv", 800, 1000), 0, 0, 1 << 20);
  const auto found = find(kLateReceiver, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 1u);
  EXPECT_EQ(found[0].idle, 600);
}

TEST(LateReceiver, WaitOnASmallIsendIsLocal) {
  TraceBuilder b(2);
  b.isend(b.call(0, "MPI_Isend", 100, 110), 1, 0, 8, 5);
  b.isend_complete(b.call(0, "MPI_Wait", 200, 1000), 5);
  b.recv(b.call(1, "MPI_Recv", 800, 1000), 0, 0, 8);
  EXPECT_TRUE(find(kLateReceiver, b.finish()).empty());
}

TEST(LateReceiver, WaitallOverMixedSendsAndReceives) {
  TraceBuilder b(3);
  b.isend(b.call(0, "MPI_Issend", 100, 110), 1, 0, 8, 1);
  b.irecv_request(b.call(0, "MPI_Irecv", 120, 130), 2);
  const auto all = b.call(0, "MPI_Waitall", 200, 1000);
  b.isend_complete(all, 1);
  b.irecv(all, 2, 0, 8, 2);
  b.recv(b.call(1, "MPI_Recv", 500, 1000), 0, 0, 8);
  b.send(b.call(2, "MPI_Send", 900, 910), 0, 0, 8);
  const Trace t = b.finish();
  const auto late_receiver = on_rank(find(kLateReceiver, t), 0);
  ASSERT_EQ(late_receiver.size(), 1u);
  EXPECT_EQ(late_receiver[0].idle, 300);
  EXPECT_EQ(late_receiver[0].peers, std::vector<std::int32_t>{1});
  const auto late_sender = on_rank(find(kLateSender, t), 0);
  ASSERT_EQ(late_sender.size(), 1u);
  EXPECT_EQ(late_sender[0].idle, 700);
  EXPECT_EQ(late_sender[0].peers, std::vector<std::int32_t>{2});
}

}  // namespace
}  // namespace collwrap::testing
