// wrong_order (Akopyan and Andreev): End(S_a) < End(S_b), End(R_b) < End(R_a), Start(R_b) <
// Start(S_b).
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

// Rank 1 sends tags 0, 1 early and tag 2 late; rank 0 receives 2, 1, 0: the seed's example.
TEST(WrongOrder, SameSource) {
  TraceBuilder b(2);
  b.send(b.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 120, 130), 0, 1, 8);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 2, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 1010, "app.c", 21), 1, 2, 8);
  b.recv(b.call(0, "MPI_Recv", 1020, 1030), 1, 1, 8);
  b.recv(b.call(0, "MPI_Recv", 1040, 1050), 1, 0, 8);
  const auto found = find(kWrongOrder, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].call, 0u);
  EXPECT_EQ(found[0].idle, 800);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].detail.order, MessageOrder::SameSource);
}

TEST(WrongOrder, DifferentSource) {
  TraceBuilder b(3);
  b.send(b.call(2, "MPI_Send", 100, 110), 0, 5, 8);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 5, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 1010), 1, 5, 8);
  b.recv(b.call(0, "MPI_Recv", 1020, 1030), 2, 5, 8);
  const auto found = find(kWrongOrder, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].detail.order, MessageOrder::DifferentSource);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
}

// Receives completed by the same call (or by calls that end at the same instant) were not
// received one after the other: an eager message among them does not put the waiting one in
// wrong order. A later call that ends after them does.
TEST(WrongOrder, ReceivesCompletedTogetherAreNotLater) {
  TraceBuilder b(2);
  b.send(b.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 2, 8);
  b.irecv_request(b.call(0, "MPI_Irecv", 150, 160), 1);
  b.irecv_request(b.call(0, "MPI_Irecv", 170, 180), 2);
  const auto waitall = b.call(0, "MPI_Waitall", 200, 1010);
  b.irecv(waitall, 1, 2, 8, 1);
  b.irecv(waitall, 1, 0, 8, 2);
  const Trace together = b.finish();
  EXPECT_TRUE(find(kWrongOrder, together).empty());
  ASSERT_EQ(find(kLateSender, together).size(), 1u);

  TraceBuilder c(2);
  c.send(c.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  c.send(c.call(1, "MPI_Send", 1000, 1010), 0, 2, 8);
  c.recv(c.call(0, "MPI_Recv", 200, 1010), 1, 2, 8);
  c.recv(c.call(0, "MPI_Recv", 1010, 1010), 1, 0, 8);  // ends at the same instant
  EXPECT_TRUE(find(kWrongOrder, c.finish()).empty());

  TraceBuilder d(2);
  d.send(d.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  d.send(d.call(1, "MPI_Send", 1000, 1010), 0, 2, 8);
  d.recv(d.call(0, "MPI_Recv", 200, 1010), 1, 2, 8);
  d.recv(d.call(0, "MPI_Recv", 1010, 1011), 1, 0, 8);  // one nanosecond later
  EXPECT_EQ(find(kWrongOrder, d.finish()).size(), 1u);
}

TEST(WrongOrder, ReceivingInSendOrderIsFine) {
  TraceBuilder b(2);
  b.send(b.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 2, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 210), 1, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 220, 1010), 1, 2, 8);
  const Trace t = b.finish();
  EXPECT_TRUE(find(kWrongOrder, t).empty());
  EXPECT_EQ(find(kLateSender, t).size(), 1u);  // still a late sender, just not wrong order
}

TEST(WrongOrder, NeedsTheWaitingReceiveToBeALateSender) {
  TraceBuilder b(2);
  b.send(b.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 120, 130), 0, 2, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 210), 1, 2, 8);
  b.recv(b.call(0, "MPI_Recv", 220, 230), 1, 0, 8);
  EXPECT_TRUE(find(kWrongOrder, b.finish()).empty());
}

TEST(WrongOrder, RendezvousMessagesDoNotArriveOnTheirOwn) {
  // A large MPI_Isend returns at once, but its data waits for the receive: it had not arrived.
  for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{1} << 20}) {
    TraceBuilder b(3);
    b.isend(b.call(2, "MPI_Isend", 100, 110), 0, 5, bytes, 1);
    b.isend_complete(b.call(2, "MPI_Wait", 120, 1030), 1);
    b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 5, 8);
    b.recv(b.call(0, "MPI_Recv", 200, 1010), 1, 5, 8);
    b.recv(b.call(0, "MPI_Recv", 1020, 1030), 2, 5, bytes);
    EXPECT_EQ(find(kWrongOrder, b.finish()).size(), bytes == 8 ? 1u : 0u) << bytes;
  }
}

TEST(WrongOrder, OtherCommunicatorsDoNotCount) {
  TraceBuilder b(3);
  const auto other = b.comm({0, 1, 2}, "dup");
  b.send(b.call(2, "MPI_Send", 100, 110), 0, 5, 8, other);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 5, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 1010), 1, 5, 8);
  b.recv(b.call(0, "MPI_Recv", 1020, 1030), 2, 5, 8, other);
  EXPECT_TRUE(find(kWrongOrder, b.finish()).empty());
}

// The receiver takes turns between sources and communicators: the late receive from rank 1
// is in wrong order because of rank 1's early message, received last, and not because of what
// came from rank 2 on another communicator in between (the rule keeps the last source and
// communicator it looked at close at hand).
TEST(WrongOrder, EachSourceAndCommunicatorKeepsItsOwnEarliestSend) {
  TraceBuilder b(3);
  const auto other = b.comm({0, 1, 2}, "dup");
  b.send(b.call(1, "MPI_Send", 100, 110), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 2, 8);
  b.send(b.call(2, "MPI_Send", 1500, 1510), 0, 5, 8, other);
  b.recv(b.call(0, "MPI_Recv", 200, 1010), 1, 2, 8);
  b.recv(b.call(0, "MPI_Recv", 1020, 1520), 2, 5, 8, other);
  b.recv(b.call(0, "MPI_Recv", 1530, 1540), 1, 0, 8);
  const auto found = find(kWrongOrder, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 0u);
  EXPECT_EQ(found[0].idle, 800);
  EXPECT_EQ(found[0].detail.order, MessageOrder::SameSource);
}

TEST(WrongOrder, MessageSentAfterTheWaitEndedDoesNotCount) {
  TraceBuilder b(3);
  b.send(b.call(1, "MPI_Send", 1000, 1010), 0, 5, 8);
  b.send(b.call(2, "MPI_Send", 1500, 1510), 0, 5, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 1010), 1, 5, 8);
  b.recv(b.call(0, "MPI_Recv", 1600, 1610), 2, 5, 8);
  EXPECT_TRUE(find(kWrongOrder, b.finish()).empty());
}

}  // namespace
}  // namespace collwrap::testing
