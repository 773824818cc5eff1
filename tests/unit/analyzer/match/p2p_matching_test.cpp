// Point-to-point matching and request linkage on hand-built traces.
#include <gtest/gtest.h>

#include <utility>

#include "matching.h"
#include "request_linkage.h"
#include "trace_builder.h"

namespace collwrap {
namespace {

OpRef op_ref(CallRef c, std::uint32_t op) {
  return {c.loc, op};
}

// The message whose send is `send`, or nullptr.
const Message* message_of(const Matching& m, OpRef send) {
  const std::uint32_t i = m.message_of_op[send.loc][send.op];
  return i == kNone ? nullptr : &m.messages[i];
}

TEST(P2PMatching, PairsABlockingSendWithItsReceive) {
  TraceBuilder b(2);
  auto s = b.call(0, "MPI_Send", 100, 200, "a.c", 10);
  const auto send = b.send(s, 1, 7, 8);
  auto r = b.call(1, "MPI_Recv", 50, 300, "a.c", 20);
  const auto recv = b.recv(r, 0, 7, 8);
  const Trace t = b.finish();
  const Matching m = match_trace(t);

  ASSERT_EQ(m.messages.size(), 1u);
  const Message& msg = m.messages[0];
  EXPECT_EQ(msg.send, op_ref(s, send));
  EXPECT_EQ(send_done(t, m, msg), msg.send);
  EXPECT_EQ(msg.recv, op_ref(r, recv));
  EXPECT_EQ(recv_post(m, msg), msg.recv);
  EXPECT_EQ(m.message_of_op[r.loc][recv], 0u);
  EXPECT_EQ(m.counts.messages, 1u);
  EXPECT_EQ(m.counts.unmatched_sends + m.counts.unmatched_receives, 0u);
  EXPECT_EQ(m.counts.clock_violations, 0u);
}

TEST(P2PMatching, MessagesWithOneKeyMatchInSendOrder) {
  TraceBuilder b(2);
  std::vector<OpRef> sends, recvs;
  for (int i = 0; i < 5; ++i) {
    auto s = b.call(0, "MPI_Send", 100 * i, 100 * i + 10);
    sends.push_back(op_ref(s, b.send(s, 1, 3, 100 + i)));
    auto r = b.call(1, "MPI_Recv", 100 * i, 100 * i + 50);
    recvs.push_back(op_ref(r, b.recv(r, 0, 3, 100 + i)));
  }
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.messages.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    const Message* msg = message_of(m, sends[i]);
    ASSERT_NE(msg, nullptr);
    EXPECT_EQ(msg->recv, recvs[i]) << "message " << i;
  }
}

TEST(P2PMatching, TagsAreMatchedSeparately) {
  TraceBuilder b(2);
  auto s1 = b.call(0, "MPI_Send", 0, 10);
  const OpRef tag1 = op_ref(s1, b.send(s1, 1, 1, 4));
  auto s2 = b.call(0, "MPI_Send", 20, 30);
  const OpRef tag2 = op_ref(s2, b.send(s2, 1, 2, 4));
  // The receiver takes tag 2 first: tag 2 overtakes tag 1, which MPI allows.
  auto r1 = b.call(1, "MPI_Recv", 0, 40);
  const OpRef recv_tag2 = op_ref(r1, b.recv(r1, 0, 2, 4));
  auto r2 = b.call(1, "MPI_Recv", 50, 60);
  const OpRef recv_tag1 = op_ref(r2, b.recv(r2, 0, 1, 4));
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.messages.size(), 2u);
  EXPECT_EQ(message_of(m, tag1)->recv, recv_tag1);
  EXPECT_EQ(message_of(m, tag2)->recv, recv_tag2);
}

// A location's keys taking turns, now two, now three, now one again (the matcher remembers
// the last keys it looked up): each send still pairs with the receive of its own tag and place.
TEST(P2PMatching, KeysTakingTurnsMatchPerKey) {
  const int tags[] = {0, 1, 0, 1, 2, 0, 2, 1, 1, 1, 0, 2, 2, 0, 1, 2, 0, 0};
  constexpr int kTags = 3;
  TraceBuilder b(2);
  std::vector<OpRef> sends[kTags], recvs[kTags];
  TimeNs t = 0;
  for (const int tag : tags) {
    auto s = b.call(0, "MPI_Send", t, t + 10);
    sends[tag].push_back(op_ref(s, b.send(s, 1, tag, 8)));
    t += 20;
  }
  // The receiver takes the tags in the reverse order of the sends, each tag's in send order.
  for (const int tag : std::vector<int>(std::rbegin(tags), std::rend(tags))) {
    auto r = b.call(1, "MPI_Recv", t, t + 10);
    recvs[tag].push_back(op_ref(r, b.recv(r, 0, tag, 8)));
    t += 20;
  }
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.messages.size(), std::size(tags));
  for (int tag = 0; tag < kTags; ++tag)
    for (std::size_t i = 0; i < sends[tag].size(); ++i) {
      const Message* msg = message_of(m, sends[tag][i]);
      ASSERT_NE(msg, nullptr);
      EXPECT_EQ(msg->recv, recvs[tag][i]) << "tag " << tag << ", message " << i;
    }
}

TEST(P2PMatching, WildcardReceivesUseTheRecordedSource) {
  // Rank 1 posts two MPI_ANY_SOURCE receives; the trace records that the first matched rank 2.
  TraceBuilder b(3);
  auto from0 = b.call(0, "MPI_Send", 10, 20);
  const OpRef send0 = op_ref(from0, b.send(from0, 1, 5, 8));
  auto from2 = b.call(2, "MPI_Send", 0, 5);
  const OpRef send2 = op_ref(from2, b.send(from2, 1, 5, 8));
  auto first = b.call(1, "MPI_Recv", 0, 30);
  const OpRef recv_first = op_ref(first, b.recv(first, 2, 5, 8));
  auto second = b.call(1, "MPI_Recv", 40, 50);
  const OpRef recv_second = op_ref(second, b.recv(second, 0, 5, 8));
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(message_of(m, send2)->recv, recv_first);
  EXPECT_EQ(message_of(m, send0)->recv, recv_second);
}

TEST(P2PMatching, ZeroByteMessagesAreMessages) {
  TraceBuilder b(2);
  auto s = b.call(0, "MPI_Send", 0, 10);
  b.send(s, 1, 0, 0);
  auto r = b.call(1, "MPI_Recv", 0, 20);
  b.recv(r, 0, 0, 0);
  EXPECT_EQ(match_trace(b.finish()).counts.messages, 1u);
}

TEST(P2PMatching, CommunicatorsSeparateOtherwiseEqualKeys) {
  TraceBuilder b(3);
  const auto sub = b.comm({1, 2}, "sub");
  auto s1 = b.call(1, "MPI_Send", 0, 10);
  const OpRef on_sub = op_ref(s1, b.send(s1, 2, 9, 4, sub));
  auto s2 = b.call(1, "MPI_Send", 20, 30);
  const OpRef on_world = op_ref(s2, b.send(s2, 2, 9, 4, 0));
  auto r1 = b.call(2, "MPI_Recv", 0, 40);
  const OpRef recv_world = op_ref(r1, b.recv(r1, 1, 9, 4, 0));
  auto r2 = b.call(2, "MPI_Recv", 50, 60);
  const OpRef recv_sub = op_ref(r2, b.recv(r2, 1, 9, 4, sub));
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(message_of(m, on_sub)->recv, recv_sub);
  EXPECT_EQ(message_of(m, on_world)->recv, recv_world);
}

TEST(P2PMatching, NonblockingReceivesCountWhereTheyWerePosted) {
  // Rank 1 posts Irecv A, then Irecv B (same key), and waits for B before A. The first message
  // sent must go to A, the first receive posted, although A completes last.
  TraceBuilder b(2);
  auto s1 = b.call(0, "MPI_Send", 0, 10);
  const OpRef first = op_ref(s1, b.send(s1, 1, 4, 8));
  auto s2 = b.call(0, "MPI_Send", 20, 30);
  const OpRef second = op_ref(s2, b.send(s2, 1, 4, 8));
  auto post_a = b.call(1, "MPI_Irecv", 0, 1);
  const OpRef request_a = op_ref(post_a, b.irecv_request(post_a, 11));
  auto post_b = b.call(1, "MPI_Irecv", 2, 3);
  const OpRef request_b = op_ref(post_b, b.irecv_request(post_b, 12));
  auto wait_b = b.call(1, "MPI_Wait", 40, 50);
  const OpRef done_b = op_ref(wait_b, b.irecv(wait_b, 0, 4, 8, 12));
  auto wait_a = b.call(1, "MPI_Wait", 60, 70);
  const OpRef done_a = op_ref(wait_a, b.irecv(wait_a, 0, 4, 8, 11));
  const Matching m = match_trace(b.finish());

  ASSERT_EQ(m.messages.size(), 2u);
  EXPECT_EQ(message_of(m, first)->recv, done_a);
  EXPECT_EQ(recv_post(m, *message_of(m, first)), request_a);
  EXPECT_EQ(message_of(m, second)->recv, done_b);
  EXPECT_EQ(recv_post(m, *message_of(m, second)), request_b);
  EXPECT_EQ(m.request_partner[post_a.loc][request_a.op], done_a.op);
  EXPECT_EQ(m.request_partner[wait_a.loc][done_a.op], request_a.op);
  EXPECT_EQ(m.counts.unmatched_requests, 0u);
}

// A location with blocking calls only has no request pairs: its table stays empty, and its
// sends and receives are their own completion and posting.
TEST(P2PMatching, LocationsWithoutRequestsKeepNoPairTable) {
  TraceBuilder b(2);
  auto s = b.call(0, "MPI_Send", 0, 10);
  const OpRef send = op_ref(s, b.send(s, 1, 4, 8));
  auto post = b.call(1, "MPI_Irecv", 0, 1);
  const OpRef request = op_ref(post, b.irecv_request(post, 11));
  auto wait = b.call(1, "MPI_Wait", 20, 30);
  const OpRef done = op_ref(wait, b.irecv(wait, 0, 4, 8, 11));
  const Trace t = b.finish();
  const Matching m = match_trace(t);

  EXPECT_TRUE(m.request_partner[send.loc].empty());
  EXPECT_EQ(m.request_partner[request.loc].size(), t.locations[request.loc].ops());
  EXPECT_EQ(m.partner_of(send.loc, send.op), kNone);
  EXPECT_EQ(m.partner_of(request.loc, request.op), done.op);
  ASSERT_EQ(m.messages.size(), 1u);
  EXPECT_EQ(send_done(t, m, m.messages[0]), send);
  EXPECT_EQ(recv_post(m, m.messages[0]), request);
}

// A location that neither sends nor receives keeps no message table.
TEST(P2PMatching, LocationsWithoutMessagesKeepNoMessageTable) {
  TraceBuilder b(3);
  auto s = b.call(0, "MPI_Send", 0, 10);
  const OpRef send = op_ref(s, b.send(s, 1, 4, 8));
  auto r = b.call(1, "MPI_Recv", 0, 20);
  b.recv(r, 0, 4, 8);
  auto barrier = b.call(2, "MPI_Barrier", 0, 30);
  b.collective(barrier, CollOp::Barrier);
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  EXPECT_EQ(m.message_of_op[send.loc].size(), t.locations[send.loc].ops());
  EXPECT_EQ(m.message_of_op[r.loc].size(), t.locations[r.loc].ops());
  EXPECT_TRUE(m.message_of_op[barrier.loc].empty());
  EXPECT_EQ(m.message_of_op[send.loc][send.op], 0u);
}

TEST(P2PMatching, PersistentRequestsRestartedThreeTimesPairInSequence) {
  TraceBuilder b(2);
  constexpr std::uint64_t kSendRequest = 42, kRecvRequest = 43;  // reused by every MPI_Start
  b.call(0, "MPI_Send_init", 0, 1);
  b.call(1, "MPI_Recv_init", 0, 1);
  std::vector<OpRef> posts, completions, receives;
  for (int round = 0; round < 3; ++round) {
    const TimeNs t = 100 * (round + 1);
    auto start_s = b.call(0, "MPI_Start", t, t + 5);
    posts.push_back(op_ref(start_s, b.isend(start_s, 1, 0, 64, kSendRequest)));
    auto wait_s = b.call(0, "MPI_Wait", t + 10, t + 20);
    completions.push_back(op_ref(wait_s, b.isend_complete(wait_s, kSendRequest)));
    auto start_r = b.call(1, "MPI_Start", t, t + 5);
    b.irecv_request(start_r, kRecvRequest);
    auto wait_r = b.call(1, "MPI_Wait", t + 10, t + 30);
    receives.push_back(op_ref(wait_r, b.irecv(wait_r, 0, 0, 64, kRecvRequest)));
  }
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  ASSERT_EQ(m.messages.size(), 3u);
  for (int round = 0; round < 3; ++round) {
    const Message* msg = message_of(m, posts[round]);
    ASSERT_NE(msg, nullptr);
    EXPECT_EQ(send_done(t, m, *msg), completions[round]) << "round " << round;
    EXPECT_EQ(msg->recv, receives[round]) << "round " << round;
  }
  EXPECT_EQ(m.counts.unmatched_requests, 0u);
}

TEST(P2PMatching, WaitallOverMixedSendsAndReceives) {
  TraceBuilder b(2);
  struct Side {
    OpRef isend, irecv_request, isend_complete, irecv;
  } side[2];
  for (int r = 0; r < 2; ++r) {
    auto isend = b.call(r, "MPI_Isend", 0, 5);
    side[r].isend = op_ref(isend, b.isend(isend, 1 - r, 0, 1 << 20, 1));
    auto irecv = b.call(r, "MPI_Irecv", 10, 15);
    side[r].irecv_request = op_ref(irecv, b.irecv_request(irecv, 2));
    auto waitall = b.call(r, "MPI_Waitall", 20, 90);
    side[r].isend_complete = op_ref(waitall, b.isend_complete(waitall, 1));
    side[r].irecv = op_ref(waitall, b.irecv(waitall, 1 - r, 0, 1 << 20, 2));
  }
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  ASSERT_EQ(m.messages.size(), 2u);
  for (int r = 0; r < 2; ++r) {
    const Message* msg = message_of(m, side[r].isend);
    ASSERT_NE(msg, nullptr);
    EXPECT_EQ(send_done(t, m, *msg), side[r].isend_complete);
    EXPECT_EQ(recv_post(m, *msg), side[1 - r].irecv_request);
    EXPECT_EQ(msg->recv, side[1 - r].irecv);
  }
  EXPECT_EQ(m.counts.unmatched_requests, 0u);
}

TEST(P2PMatching, ReleasingTheRequestIdsPairsTheSame) {
  TraceBuilder b(2);
  for (int r = 0; r < 2; ++r) {
    auto isend = b.call(r, "MPI_Isend", 0, 5);
    b.isend(isend, 1 - r, 0, 64, 1);
    auto irecv = b.call(r, "MPI_Irecv", 10, 15);
    b.irecv_request(irecv, 2);
    auto waitall = b.call(r, "MPI_Waitall", 20, 90);
    b.isend_complete(waitall, 1);
    b.irecv(waitall, 1 - r, 0, 64, 2);
  }
  const Trace kept = b.finish();
  Trace released = kept;
  const Matching expected = match_trace(kept);
  const Matching m = match_trace_and_release_request_ids(released);
  ASSERT_EQ(m.messages.size(), 2u);
  for (std::size_t i = 0; i < m.messages.size(); ++i) {
    EXPECT_EQ(m.messages[i].send, expected.messages[i].send);
    EXPECT_EQ(m.messages[i].recv, expected.messages[i].recv);
    EXPECT_EQ(send_done(released, m, m.messages[i]),
              send_done(kept, expected, expected.messages[i]));
    EXPECT_EQ(recv_post(m, m.messages[i]), recv_post(expected, expected.messages[i]));
  }
  EXPECT_EQ(m.request_partner, expected.request_partner);
  EXPECT_EQ(m.counts.unmatched_requests, 0u);
  for (const Location& l : released.locations) {
    EXPECT_TRUE(l.op_request.empty());
    EXPECT_EQ(l.op_request.capacity(), 0u);
  }
  EXPECT_FALSE(kept.locations[0].op_request.empty());
}

// A job's process links its share's requests before the ghosts come, and the matching goes
// on from those links: only the other locations are linked then, and each location's
// unmatched requests are counted once.
TEST(P2PMatching, MatchingGoesOnFromTheShareLinkedBefore) {
  TraceBuilder b(4);
  for (int r = 0; r < 4; ++r) {
    auto isend = b.call(r, "MPI_Isend", 0, 5);
    b.isend(isend, (r + 1) % 4, 0, 64, 1);
    auto irecv = b.call(r, "MPI_Irecv", 10, 15);
    b.irecv_request(irecv, 2);
    auto waitall = b.call(r, "MPI_Waitall", 20, 90);
    b.isend_complete(waitall, 1);
    b.irecv(waitall, (r + 3) % 4, 0, 64, 2);
    auto lost = b.call(r, "MPI_Isend", 100, 105);
    b.isend(lost, (r + 1) % 4, 1, 8, 3 + r);  // never completed: unmatched
  }
  const Trace whole = b.finish();
  const LocationRange share{1, 3};
  Trace expected_trace = whole;
  const Matching expected = match_trace_and_release_request_ids(expected_trace, 1, share);
  EXPECT_EQ(expected.counts.unmatched_requests, 2u);
  for (const unsigned threads : {1u, 2u}) {
    Trace trace = whole;
    Matching links;
    link_requests(trace, links, threads, share);
    const Matching m = match_trace_and_release_request_ids(trace, threads, share, nullptr,
                                                           std::move(links), share);
    EXPECT_EQ(m.request_partner, expected.request_partner) << threads << " threads";
    EXPECT_EQ(m.counts.unmatched_requests, 2u) << threads << " threads";
    ASSERT_EQ(m.messages.size(), expected.messages.size());
    for (std::size_t i = 0; i < m.messages.size(); ++i) {
      EXPECT_EQ(m.messages[i].send, expected.messages[i].send);
      EXPECT_EQ(m.messages[i].recv, expected.messages[i].recv);
    }
  }
  // The share's pairs come from the links alone: links missing them leave them unpaired.
  Trace trace = whole;
  const Matching unlinked =
      match_trace_and_release_request_ids(trace, 1, share, nullptr, Matching{}, share);
  EXPECT_TRUE(unlinked.request_partner[1].empty());
  EXPECT_FALSE(unlinked.request_partner[0].empty());
}

TEST(P2PMatching, CancelledSendsAreNotMessages) {
  TraceBuilder b(2);
  auto isend = b.call(0, "MPI_Isend", 0, 5);
  const auto post = b.isend(isend, 1, 0, 8, 9);
  auto wait = b.call(0, "MPI_Wait", 10, 20);
  const auto cancelled = b.request_cancelled(wait, 9);
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(m.counts.messages, 0u);
  EXPECT_EQ(m.counts.unmatched_sends, 0u);
  EXPECT_EQ(m.counts.unmatched_requests, 0u);
  EXPECT_EQ(m.request_partner[isend.loc][post], cancelled);
}

TEST(P2PMatching, AMissingRankLeavesItsPeersUnmatched) {
  // Rank 2's stream is lost: what was sent to it and what its sends would have matched stay
  // unmatched, and counted.
  TraceBuilder b(3);
  auto s = b.call(0, "MPI_Send", 0, 10);
  b.send(s, 2, 0, 8);
  auto r = b.call(1, "MPI_Recv", 0, 10);
  b.recv(r, 2, 0, 8);
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(m.counts.messages, 0u);
  EXPECT_EQ(m.counts.unmatched_sends, 1u);
  EXPECT_EQ(m.counts.unmatched_receives, 1u);
}

TEST(P2PMatching, TruncatedRequestsAreCounted) {
  TraceBuilder b(2);
  auto isend = b.call(0, "MPI_Isend", 0, 5);
  const OpRef send = op_ref(isend, b.isend(isend, 1, 0, 8, 1));  // never completed
  auto wait = b.call(1, "MPI_Wait", 0, 50);
  b.irecv(wait, 0, 0, 8, 77);  // completion of a request whose post is not in the trace
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  EXPECT_EQ(m.counts.unmatched_requests, 2u);
  ASSERT_EQ(m.messages.size(), 1u);  // the data still tells which send it received
  EXPECT_FALSE(send_done(t, m, m.messages[0]).valid());
  EXPECT_EQ(m.messages[0].send, send);
}

TEST(P2PMatching, AReceiveBeforeItsSendIsAClockViolation) {
  TraceBuilder b(2);
  auto s = b.call(0, "MPI_Send", 500, 600);
  b.send(s, 1, 0, 8);
  auto r = b.call(1, "MPI_Recv", 100, 400);  // ends before the send began: clocks disagree
  b.recv(r, 0, 0, 8);
  EXPECT_EQ(match_trace(b.finish()).counts.clock_violations, 1u);
}

TEST(P2PMatching, ThreadsOfOneRankSendInTimeOrder) {
  TraceBuilder b(2, 2);
  auto late = b.call(0, "MPI_Send", 300, 310, "a.c", 1, /*thread*/ 0);
  const OpRef late_send = op_ref(late, b.send(late, 1, 0, 8));
  auto early = b.call(0, "MPI_Send", 100, 110, "a.c", 2, /*thread*/ 1);
  const OpRef early_send = op_ref(early, b.send(early, 1, 0, 8));
  auto r1 = b.call(1, "MPI_Recv", 0, 200);
  const OpRef first_recv = op_ref(r1, b.recv(r1, 0, 0, 8));
  auto r2 = b.call(1, "MPI_Recv", 250, 400);
  const OpRef second_recv = op_ref(r2, b.recv(r2, 0, 0, 8));
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(message_of(m, early_send)->recv, first_recv);
  EXPECT_EQ(message_of(m, late_send)->recv, second_recv);
}

TEST(P2PMatching, ThreadsOfOneRankReceiveInPostingOrder) {
  // Rank 1's two threads receive on one key: thread 1 posts its nonblocking receive first
  // (though it completes last), so it takes the first message; thread 0's blocking receive
  // takes the second, and thread 1's late blocking receive finds no third message. A second
  // key, received by one thread only, is matched in recorded order beside them.
  TraceBuilder b(2, 2);
  std::vector<OpRef> sends;
  for (int i = 0; i < 2; ++i) {
    auto s = b.call(0, "MPI_Send", 100 + 10 * i, 105 + 10 * i);
    sends.push_back(op_ref(s, b.send(s, 1, 5, 8)));
  }
  auto other = b.call(0, "MPI_Send", 130, 135);
  const OpRef other_send = op_ref(other, b.send(other, 1, 6, 8));

  auto post = b.call(1, "MPI_Irecv", 50, 55, "a.c", 1, /*thread*/ 1);
  b.irecv_request(post, 21);
  auto wait = b.call(1, "MPI_Wait", 400, 450, "a.c", 2, /*thread*/ 1);
  const OpRef posted_first = op_ref(wait, b.irecv(wait, 0, 5, 8, 21));
  auto blocking = b.call(1, "MPI_Recv", 90, 200, "a.c", 3, /*thread*/ 0);
  const OpRef posted_second = op_ref(blocking, b.recv(blocking, 0, 5, 8));
  auto tagged = b.call(1, "MPI_Recv", 210, 220, "a.c", 4, /*thread*/ 0);
  const OpRef other_recv = op_ref(tagged, b.recv(tagged, 0, 6, 8));
  auto surplus = b.call(1, "MPI_Recv", 500, 600, "a.c", 5, /*thread*/ 1);
  b.recv(surplus, 0, 5, 8);

  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.messages.size(), 3u);
  EXPECT_EQ(message_of(m, sends[0])->recv, posted_first);
  EXPECT_EQ(message_of(m, sends[1])->recv, posted_second);
  EXPECT_EQ(message_of(m, other_send)->recv, other_recv);
  EXPECT_EQ(m.counts.unmatched_receives, 1u);
  EXPECT_EQ(m.counts.unmatched_sends, 0u);
}

TEST(P2PMatching, OpsWithUnknownPeersAreCountedNotMatched) {
  TraceBuilder b(2);
  auto s = b.call(0, "MPI_Send", 0, 10);
  b.send(s, kNoWorldRank, 0, 8);
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(m.counts.invalid_ops, 1u);
  EXPECT_EQ(m.counts.unmatched_sends, 0u);
}

TEST(P2PMatching, ThreadsGiveTheSameMessagesInTheSameOrder) {
  // Sends and receives are collected and numbered side by side, and the receives' keys are
  // renumbered to the sends': every message must still join a send and a receive of one key,
  // in the order the keys were first sent, with keys that only receives have (rank 3 never
  // sends) coming first among the receives.
  TraceBuilder b(4);
  TimeNs now = 0;
  const auto call = [&](int rank, const char* name) {
    now += 10;
    return b.call(rank, name, now, now + 5);
  };
  for (int i = 0; i < 3; ++i) {
    b.recv(call(2, "MPI_Recv"), 3, i, 8);  // never sent
    for (int tag = 2; tag >= 0; --tag) {
      b.send(call(0, "MPI_Send"), 1, tag, 8);
      b.send(call(1, "MPI_Send"), 2, tag, 8);
    }
    for (int tag = 0; tag < 3; ++tag) {
      b.recv(call(1, "MPI_Recv"), 0, tag, 8);
      b.recv(call(2, "MPI_Recv"), 1, tag, 8);
    }
  }
  const Trace t = b.finish();
  const Matching one = match_trace(t, 1), four = match_trace(t, 4);
  ASSERT_EQ(one.messages.size(), 18u);
  ASSERT_EQ(four.messages.size(), one.messages.size());
  for (std::size_t i = 0; i < one.messages.size(); ++i) {
    EXPECT_EQ(four.messages[i].send, one.messages[i].send) << i;
    EXPECT_EQ(four.messages[i].recv, one.messages[i].recv) << i;
  }
  EXPECT_EQ(four.message_of_op, one.message_of_op);
  EXPECT_EQ(four.counts.unmatched_receives, 3u);
  EXPECT_EQ(one.counts.unmatched_receives, 3u);
  for (const Message& msg : one.messages) {
    const Location& sender = t.locations[msg.send.loc];
    const Location& receiver = t.locations[msg.recv.loc];
    EXPECT_EQ(sender.op_tag[msg.send.op], receiver.op_tag[msg.recv.op]);
    EXPECT_EQ(sender.op_peer[msg.send.op], receiver.rank);
    EXPECT_EQ(receiver.op_peer[msg.recv.op], sender.rank);
  }
  // The first key sent: rank 0 to rank 1 with tag 2.
  EXPECT_EQ(t.locations[one.messages[0].send.loc].rank, 0);
  EXPECT_EQ(t.locations[one.messages[0].send.loc].op_tag[one.messages[0].send.op], 2);
}

}  // namespace
}  // namespace collwrap
