// sendrecv_candidate: a blocking send and receive with one peer, closer than Δ.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

// Rank 0: `first` then `second` with rank `peer` (gap `gap`); the peer does the mirror image.
Trace exchange(bool send_first, TimeNs gap, int peer = 1) {
  TraceBuilder b(3);
  const TimeNs second_enter = 300 + gap;
  if (send_first) {
    b.send(b.call(0, "MPI_Send", 100, 300, "app.c", 8), peer, 0, 1 << 20);
    b.recv(b.call(0, "MPI_Recv", second_enter, second_enter + 190, "app.c", 9), 1, 0, 1 << 20);
    b.recv(b.call(peer, "MPI_Recv", 100, 300), 0, 0, 1 << 20);
    b.send(b.call(1, "MPI_Send", 300, second_enter + 190), 0, 0, 1 << 20);
  } else {
    b.recv(b.call(0, "MPI_Recv", 100, 300, "app.c", 8), 1, 0, 1 << 20);
    b.send(b.call(0, "MPI_Send", second_enter, second_enter + 190, "app.c", 9), peer, 0, 1 << 20);
    b.send(b.call(1, "MPI_Send", 100, 300), 0, 0, 1 << 20);
    b.recv(b.call(peer, "MPI_Recv", 300, second_enter + 190), 0, 0, 1 << 20);
  }
  return b.finish();
}

TEST(SendrecvCandidate, SendThenReceive) {
  const auto found = on_rank(find(kSendrecvCandidate, exchange(true, 10)), 0);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 0u);
  EXPECT_EQ(found[0].idle, 190);  // the shorter of the two calls
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].detail.related_call, 1u);
}

TEST(SendrecvCandidate, ReceiveThenSend) {
  EXPECT_EQ(on_rank(find(kSendrecvCandidate, exchange(false, 10)), 0).size(), 1u);
}

TEST(SendrecvCandidate, GapAtTheWindowIsTooLong) {
  RuleOptions options;
  options.sendrecv_window = 1000;
  EXPECT_TRUE(on_rank(find(kSendrecvCandidate, exchange(true, 1000), options), 0).empty());
  EXPECT_EQ(on_rank(find(kSendrecvCandidate, exchange(true, 999), options), 0).size(), 1u);
}

TEST(SendrecvCandidate, DifferentPeersAreNotAnExchange) {
  EXPECT_TRUE(on_rank(find(kSendrecvCandidate, exchange(true, 10, 2)), 0).empty());
}

TEST(SendrecvCandidate, EachCallJoinsOnePair) {
  // send, receive, send, receive: two exchanges, not three overlapping pairs.
  TraceBuilder b(2);
  for (int round = 0; round < 2; ++round) {
    const TimeNs t = round * 1000;
    b.send(b.call(0, "MPI_Send", t + 100, t + 300), 1, 0, 1 << 20);
    b.recv(b.call(0, "MPI_Recv", t + 310, t + 500), 1, 0, 1 << 20);
    b.recv(b.call(1, "MPI_Recv", t + 100, t + 300), 0, 0, 1 << 20);
    b.send(b.call(1, "MPI_Send", t + 300, t + 500), 0, 0, 1 << 20);
  }
  const auto found = on_rank(find(kSendrecvCandidate, b.finish()), 0);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].call, 0u);
  EXPECT_EQ(found[1].call, 2u);
}

TEST(SendrecvCandidate, TwoSendsAreNotAnExchange) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 100, 300), 1, 0, 8);
  b.send(b.call(0, "MPI_Send", 310, 500), 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 100, 300), 0, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 310, 500), 0, 0, 8);
  EXPECT_TRUE(find(kSendrecvCandidate, b.finish()).empty());
}

}  // namespace
}  // namespace collwrap::testing
