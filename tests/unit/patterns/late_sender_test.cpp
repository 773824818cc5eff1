// late_sender: min(Enter_send, Exit_recv) − Enter_recv on Recv, Sendrecv and Wait* on Irecv.
#include <gtest/gtest.h>

#include "rule_test_support.h"

namespace collwrap::testing {
namespace {

TEST(LateSender, ReceiveWaitsForLateSend) {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 100, 1000, "app.c", 17), 1, 7, 8);
  b.send(b.call(1, "MPI_Send", 600, 700), 0, 7, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].call, 0u);
  EXPECT_EQ(found[0].idle, 500);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].detail.send_mode, SendMode::Standard);
}

TEST(LateSender, SendBeforeReceiveIsNoWait) {
  TraceBuilder b(2);
  b.send(b.call(1, "MPI_Send", 50, 60), 0, 7, 8);
  b.recv(b.call(0, "MPI_Recv", 100, 200), 1, 7, 8);
  EXPECT_TRUE(find(kLateSender, b.finish()).empty());
}

TEST(LateSender, IdleNeverExceedsTheReceiveCall) {
  // Clock-condition violation: the receive ends before the send starts. The idle time is
  // clamped to the receive's own duration, not extrapolated.
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 100, 300), 1, 7, 8);
  b.send(b.call(1, "MPI_Send", 900, 950), 0, 7, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 200);
}

TEST(LateSender, ReportsTheModeOfTheLateSend) {
  TraceBuilder b(3);
  b.recv(b.call(0, "MPI_Recv", 100, 1000), 1, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 1100, 2000), 2, 0, 8);
  b.send(b.call(1, "MPI_Ssend", 500, 1000), 0, 0, 8);
  b.send(b.call(2, "MPI_Bsend", 1500, 1510), 0, 0, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].detail.send_mode, SendMode::Synchronous);
  EXPECT_EQ(found[1].detail.send_mode, SendMode::Buffered);
}

TEST(LateSender, WaitCompletingAnIrecv) {
  TraceBuilder b(2);
  b.irecv_request(b.call(0, "MPI_Irecv", 100, 110), 1);
  b.irecv(b.call(0, "MPI_Wait", 200, 1000, "app.c", 30), 1, 5, 64, 1);
  b.send(b.call(1, "MPI_Send", 600, 610), 0, 5, 64);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 1u);  // the Wait, not the Irecv
  EXPECT_EQ(found[0].idle, 400);
}

TEST(LateSender, WaitallIdlesOnceForItsLatestSender) {
  TraceBuilder b(3);
  const auto post = b.call(0, "MPI_Irecv", 100, 110);
  b.irecv_request(post, 1);
  const auto post2 = b.call(0, "MPI_Irecv", 120, 130);
  b.irecv_request(post2, 2);
  const auto wait = b.call(0, "MPI_Waitall", 200, 1000);
  b.irecv(wait, 1, 0, 8, 1);
  b.irecv(wait, 2, 0, 8, 2);
  b.send(b.call(1, "MPI_Send", 500, 510), 0, 0, 8);
  b.send(b.call(2, "MPI_Send", 800, 810), 0, 0, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 600);  // max(300, 600), not the sum
  EXPECT_EQ(found[0].peers, (std::vector<std::int32_t>{1, 2}));
}

TEST(LateSender, TestNeverBlocks) {
  TraceBuilder b(2);
  b.irecv_request(b.call(0, "MPI_Irecv", 100, 110), 1);
  b.irecv(b.call(0, "MPI_Test", 700, 710), 1, 0, 8, 1);
  b.send(b.call(1, "MPI_Send", 600, 610), 0, 0, 8);
  EXPECT_TRUE(find(kLateSender, b.finish()).empty());
}

TEST(LateSender, AnySourceReceivesBlameTheActualSender) {
  // Both receives were posted with MPI_ANY_SOURCE; the trace records the actual sources.
  TraceBuilder b(3);
  b.recv(b.call(0, "MPI_Recv", 100, 1000), 2, 3, 8);
  b.recv(b.call(0, "MPI_Recv", 1100, 1200), 1, 3, 8);
  b.send(b.call(1, "MPI_Send", 50, 60), 0, 3, 8);
  b.send(b.call(2, "MPI_Send", 700, 710), 0, 3, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 0u);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{2});
  EXPECT_EQ(found[0].idle, 600);
}

TEST(LateSender, ZeroByteMessagesCount) {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 100, 1000), 1, 0, 0);
  b.send(b.call(1, "MPI_Send", 400, 410), 0, 0, 0);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 300);
}

TEST(LateSender, ReceivePartOfSendrecv) {
  TraceBuilder b(2);
  const auto sr = b.call(0, "MPI_Sendrecv", 100, 900);
  b.send(sr, 1, 0, 8);
  b.recv(sr, 1, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 150, 160), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 700, 710), 0, 0, 8);
  const auto found = on_rank(find(kLateSender, b.finish()), 0);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 600);
}

TEST(LateSender, PersistentRequests) {
  // MPI_Recv_init/MPI_Send_init record nothing; MPI_Start posts, MPI_Wait completes.
  TraceBuilder b(2);
  b.call(0, "MPI_Recv_init", 10, 20);
  b.irecv_request(b.call(0, "MPI_Start", 100, 110), 9);
  b.irecv(b.call(0, "MPI_Wait", 200, 1000), 1, 0, 8, 9);
  b.call(1, "MPI_Send_init", 10, 20);
  b.isend(b.call(1, "MPI_Start", 600, 610), 0, 0, 8, 4);
  b.isend_complete(b.call(1, "MPI_Wait", 620, 630), 4);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].call, 2u);
  EXPECT_EQ(found[0].idle, 400);
  EXPECT_EQ(found[0].detail.send_mode, SendMode::Standard);  // MPI_Start carries no mode
}

TEST(LateSender, UnmatchedReceiveIsNotGuessed) {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 100, 1000), 1, 0, 8);  // the sender's stream is missing
  EXPECT_TRUE(find(kLateSender, b.finish()).empty());
}

TEST(LateSender, ReportsPerThread) {
  TraceBuilder b(2, 2);
  b.recv(b.call(0, "MPI_Recv", 100, 1000, "app.c", 5, /*thread*/ 1), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 500, 510), 0, 0, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].thread, 1);
}

TEST(LateSender, NamesTheThreadThatSentLate) {
  // Rank 1's thread 0 sends tag 0 on time; its thread 1 sends tag 1 late. The receive of tag 1
  // waited for thread 1, not for the rank's main thread.
  TraceBuilder b(2, 2);
  b.send(b.call(1, "MPI_Send", 50, 60), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 800, 810, "app.c", 9, /*thread*/ 1), 0, 1, 8);
  b.recv(b.call(0, "MPI_Recv", 100, 150), 1, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 200, 900), 1, 1, 8);
  const auto found = find(kLateSender, b.finish());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].idle, 600);
  EXPECT_EQ(found[0].peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(found[0].peer_threads, std::vector<std::int32_t>{1});
}

}  // namespace
}  // namespace collwrap::testing
