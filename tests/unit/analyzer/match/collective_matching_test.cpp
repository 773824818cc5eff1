// Collective instances on hand-built traces.
#include "collective_matching.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "matching.h"
#include "request_linkage.h"
#include "trace_builder.h"
#include "upc_broadcast_trace.h"

namespace collwrap {
namespace {

std::vector<OpRef> members_of(const Matching& m, const CollectiveInstance& c) {
  return {m.members.begin() + c.first_member, m.members.begin() + c.first_member + c.member_count};
}

TEST(CollectiveMatching, TheNthCallOnACommunicatorIsTheNthInstance) {
  TraceBuilder b(3);
  std::vector<std::vector<OpRef>> expected(2);
  for (int r = 0; r < 3; ++r) {
    auto bar = b.call(r, "MPI_Barrier", 0, 100);
    expected[0].push_back({bar.loc, b.collective(bar, CollOp::Barrier)});
    auto red = b.call(r, "MPI_Allreduce", 200, 300);
    expected[1].push_back({red.loc, b.collective(red, CollOp::Allreduce, 0, kNoWorldRank, 8, 8)});
  }
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(m.collectives[0].op, CollOp::Barrier);
  EXPECT_EQ(m.collectives[1].op, CollOp::Allreduce);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(m.collectives[i].complete);
    EXPECT_FALSE(m.collectives[i].nonblocking);
    EXPECT_EQ(members_of(m, m.collectives[i]), expected[i]);
  }
  for (const OpRef& s : m.starts) EXPECT_FALSE(s.valid());
  EXPECT_EQ(m.counts.incomplete_collectives, 0u);
  EXPECT_EQ(m.counts.clock_violations, 0u);
}

TEST(CollectiveMatching, SubCommunicatorsHaveTheirOwnSequenceAndWorldRoots) {
  TraceBuilder b(4);
  const auto odd = b.comm({3, 1}, "odd");  // rank 0 in `odd` is world rank 3
  for (int r : {1, 3}) {
    auto c = b.call(r, "MPI_Bcast", 0, 50);
    b.collective(c, CollOp::Bcast, odd, /*root (world)*/ 3, r == 3 ? 16 : 0, r == 3 ? 0 : 16);
  }
  for (int r = 0; r < 4; ++r) {
    auto c = b.call(r, "MPI_Barrier", 100, 200);
    b.collective(c, CollOp::Barrier);
  }
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.collectives.size(), 2u);
  const auto bcast = std::find_if(m.collectives.begin(), m.collectives.end(),
                                  [](const auto& c) { return c.op == CollOp::Bcast; });
  ASSERT_NE(bcast, m.collectives.end());
  EXPECT_EQ(bcast->comm, odd);
  EXPECT_EQ(bcast->root, 3);
  EXPECT_TRUE(bcast->complete);
  ASSERT_EQ(bcast->member_count, 2u);
  // Members in rank-in-communicator order: world 3 first.
  EXPECT_EQ(members_of(m, *bcast)[0].loc, 3u);
  EXPECT_EQ(members_of(m, *bcast)[1].loc, 1u);
}

TEST(CollectiveMatching, NonblockingCollectivesCountWhereTheyArePosted) {
  // Each rank posts an Iallreduce, then calls a Barrier, then waits for the Iallreduce. The
  // Iallreduce is the communicator's first collective although it completes last.
  TraceBuilder b(2);
  std::vector<OpRef> requests, completions;
  for (int r = 0; r < 2; ++r) {
    auto post = b.call(r, "MPI_Iallreduce", 0, 10);
    requests.push_back({post.loc, b.nbc_request(post, 5)});
    auto bar = b.call(r, "MPI_Barrier", 20, 30);
    b.collective(bar, CollOp::Barrier);
    auto wait = b.call(r, "MPI_Wait", 40, 50);
    completions.push_back(
        {wait.loc, b.nbc_complete(wait, CollOp::Allreduce, 5, 0, kNoWorldRank, 8, 8)});
  }
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.collectives.size(), 2u);
  const CollectiveInstance& first = m.collectives[0];
  EXPECT_EQ(first.op, CollOp::Allreduce);
  EXPECT_TRUE(first.nonblocking);
  EXPECT_TRUE(first.complete);
  EXPECT_EQ(members_of(m, first), completions);
  EXPECT_EQ(std::vector<OpRef>(m.starts.begin() + first.first_member,
                               m.starts.begin() + first.first_member + first.member_count),
            requests);
  EXPECT_EQ(m.collectives[1].op, CollOp::Barrier);
  EXPECT_EQ(m.request_partner[requests[0].loc][requests[0].op], completions[0].op);
  EXPECT_EQ(m.counts.unmatched_requests, 0u);
}

TEST(CollectiveMatching, AMissingRankMakesInstancesIncomplete) {
  TraceBuilder b(3);  // rank 2 recorded nothing
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 2; ++i) {
      auto c = b.call(r, "MPI_Barrier", 100 * i, 100 * i + 50);
      b.collective(c, CollOp::Barrier);
    }
  }
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_FALSE(m.collectives[0].complete);
  EXPECT_EQ(m.collectives[0].member_count, 2u);
  EXPECT_EQ(m.counts.incomplete_collectives, 2u);
}

TEST(CollectiveMatching, ATruncatedRankCompletesFewerInstances) {
  TraceBuilder b(2);
  for (int i = 0; i < 3; ++i) {
    auto c = b.call(0, "MPI_Barrier", 100 * i, 100 * i + 50);
    b.collective(c, CollOp::Barrier);
  }
  auto c = b.call(1, "MPI_Barrier", 0, 50);
  b.collective(c, CollOp::Barrier);
  const Matching m = match_trace(b.finish());
  ASSERT_EQ(m.collectives.size(), 3u);
  EXPECT_TRUE(m.collectives[0].complete);
  EXPECT_EQ(m.counts.incomplete_collectives, 2u);
}

TEST(CollectiveMatching, MembersThatDisagreeAreCounted) {
  TraceBuilder b(2);
  auto c0 = b.call(0, "MPI_Bcast", 0, 50);
  b.collective(c0, CollOp::Bcast, 0, 0, 8, 0);
  auto c1 = b.call(1, "MPI_Reduce", 0, 50);
  b.collective(c1, CollOp::Reduce, 0, 0, 8, 0);
  EXPECT_EQ(match_trace(b.finish()).counts.mismatched_collectives, 1u);
}

TEST(CollectiveMatching, LeavingABarrierBeforeTheLastEntryIsAClockViolation) {
  TraceBuilder b(3);
  auto early = b.call(0, "MPI_Barrier", 0, 50);  // leaves at 50…
  b.collective(early, CollOp::Barrier);
  for (int r = 1; r < 3; ++r) {
    auto c = b.call(r, "MPI_Barrier", 100, 150);  // …before these entered
    b.collective(c, CollOp::Barrier);
  }
  EXPECT_EQ(match_trace(b.finish()).counts.clock_violations, 1u);
}

TEST(CollectiveMatching, BroadcastReceiversCannotLeaveBeforeTheRootEnters) {
  TraceBuilder b(3);
  auto root = b.call(0, "MPI_Bcast", 100, 150);
  b.collective(root, CollOp::Bcast, 0, 0, 64, 0);
  auto before = b.call(1, "MPI_Bcast", 0, 50);  // has the data before the root sent it
  b.collective(before, CollOp::Bcast, 0, 0, 0, 64);
  auto after = b.call(2, "MPI_Bcast", 0, 200);
  b.collective(after, CollOp::Bcast, 0, 0, 0, 64);
  EXPECT_EQ(match_trace(b.finish()).counts.clock_violations, 1u);
}

std::uint64_t upc_broadcast_violations(UpcSync entry, UpcSync exit) {
  return match_trace(upc_broadcast_leaving_early(entry, exit)).counts.clock_violations;
}

TEST(CollectiveMatching, UpcNoSyncMembersMayLeaveBeforeOthersEnter) {
  EXPECT_EQ(upc_broadcast_violations(UpcSync::No, UpcSync::No), 0u);
  EXPECT_EQ(upc_broadcast_violations(UpcSync::No, UpcSync::My), 0u);
  EXPECT_EQ(upc_broadcast_violations(UpcSync::My, UpcSync::No), 0u);
}

TEST(CollectiveMatching, UpcSynchronizingModesKeepTheClockCondition) {
  // ALLSYNC: thread 1 must leave after every entry; MYSYNC on both sides: after the source's.
  EXPECT_EQ(upc_broadcast_violations(UpcSync::All, UpcSync::All), 1u);
  EXPECT_EQ(upc_broadcast_violations(UpcSync::No, UpcSync::All), 1u);
  EXPECT_EQ(upc_broadcast_violations(UpcSync::All, UpcSync::No), 1u);
  EXPECT_EQ(upc_broadcast_violations(UpcSync::My, UpcSync::My), 1u);
}

TEST(CollectiveMatching, AReduceRootCannotLeaveBeforeTheLastSenderEnters) {
  TraceBuilder b(2);
  auto root = b.call(0, "MPI_Reduce", 0, 50);
  b.collective(root, CollOp::Reduce, 0, 0, 8, 8);
  auto sender = b.call(1, "MPI_Reduce", 100, 150);
  b.collective(sender, CollOp::Reduce, 0, 0, 8, 0);
  EXPECT_EQ(match_trace(b.finish()).counts.clock_violations, 1u);
}

TEST(CollectiveMatching, ScanMembersDependOnLowerRanksOnly) {
  TraceBuilder b(2);
  auto low = b.call(0, "MPI_Scan", 0, 50);  // rank 0 needs nobody: leaving early is fine
  b.collective(low, CollOp::Scan, 0, kNoWorldRank, 8, 8);
  auto high = b.call(1, "MPI_Scan", 100, 150);
  b.collective(high, CollOp::Scan, 0, kNoWorldRank, 8, 8);
  EXPECT_EQ(match_trace(b.finish()).counts.clock_violations, 0u);

  TraceBuilder b2(2);
  auto low2 = b2.call(0, "MPI_Scan", 100, 150);
  b2.collective(low2, CollOp::Scan, 0, kNoWorldRank, 8, 8);
  auto high2 = b2.call(1, "MPI_Scan", 0, 50);  // rank 1 left before rank 0 entered
  b2.collective(high2, CollOp::Scan, 0, kNoWorldRank, 8, 8);
  EXPECT_EQ(match_trace(b2.finish()).counts.clock_violations, 1u);
}

TEST(CollectiveMatching, CollectivesOnUnknownCommunicatorsAreCounted) {
  TraceBuilder b(2);
  const auto pair = b.comm({0}, "solo");
  auto c = b.call(1, "MPI_Barrier", 0, 50);  // rank 1 is no member of `solo`
  b.collective(c, CollOp::Barrier, pair);
  const Matching m = match_trace(b.finish());
  EXPECT_EQ(m.counts.invalid_ops, 1u);
  EXPECT_TRUE(m.collectives.empty());
}

// Ranges of instances are matched side by side: many instances on two communicators, one
// rank cut short on each, and some members that disagree or leave early, give the same
// instances, members and counts on any number of threads, and the counts the trace holds.
TEST(CollectiveMatching, ThreadsMatchWhatOneThreadMatches) {
  TraceBuilder b(4);
  const auto odd = b.comm({3, 1}, "odd");
  constexpr int kWorld = 9000, kOdd = 5000;
  for (int r = 0; r < 4; ++r) {
    const int calls = r == 2 ? kWorld - 100 : kWorld;  // rank 2 misses the last 100
    for (int i = 0; i < calls; ++i) {
      const TimeNs t = 1000 * i;
      // Rank 0 leaves every 1000th barrier before rank 3 enters it.
      const bool early = r == 0 && i % 1000 == 0;
      auto c = b.call(r, i % 2 ? "MPI_Allreduce" : "MPI_Barrier", t + (r == 3 ? 300 : 0),
                      early ? t + 100 : t + 500);
      // Rank 1 calls a Reduce where the others call every 700th Allreduce.
      const CollOp op = i % 2 == 0               ? CollOp::Barrier
                        : r == 1 && i % 700 == 1 ? CollOp::Reduce
                                                 : CollOp::Allreduce;
      b.collective(c, op, 0, kNoWorldRank, i % 2 ? 8 : 0, i % 2 ? 8 : 0);
    }
  }
  for (int r : {3, 1}) {
    for (int i = 0; i < (r == 1 ? kOdd : kOdd - 7); ++i) {
      auto c = b.call(r, "MPI_Bcast", 10'000'000 + 100 * i, 10'000'000 + 100 * i + 50);
      b.collective(c, CollOp::Bcast, odd, 3, r == 3 ? 16 : 0, r == 3 ? 0 : 16);
    }
  }
  const Trace trace = b.finish();
  Matching one;
  link_requests(trace, one, 1);
  MatchCounts one_counts;
  match_collectives(trace, one, one_counts, {}, nullptr, 1);
  ASSERT_EQ(one.collectives.size(), std::size_t{kWorld + kOdd});
  EXPECT_EQ(one_counts.incomplete_collectives, 100u + 7u);
  EXPECT_EQ(one_counts.mismatched_collectives, 13u);  // i = 1, 701, …, 8401
  EXPECT_EQ(one_counts.clock_violations, 9u);         // i = 0, 1000, …, 8000
  // Each instance's members follow the previous one's, and every member is a call's.
  ASSERT_EQ(one.members.size(), std::size_t{4 * kWorld - 100 + 2 * kOdd - 7});
  std::uint32_t next = 0;
  for (const CollectiveInstance& c : one.collectives) {
    ASSERT_EQ(c.first_member, next);
    next += c.member_count;
  }
  for (const OpRef& member : one.members) ASSERT_TRUE(member.valid());
  EXPECT_EQ(one.collectives[kWorld - 1].member_count, 3u);
  EXPECT_EQ(one.collectives[kWorld].comm, odd);
  EXPECT_EQ(one.collectives[kWorld + kOdd - 1].member_count, 1u);
  for (const unsigned threads : {2u, 3u, 8u}) {
    Matching m;
    link_requests(trace, m, 1);
    MatchCounts counts;
    match_collectives(trace, m, counts, {}, nullptr, threads);
    ASSERT_EQ(m.collectives.size(), one.collectives.size()) << threads << " threads";
    for (std::size_t i = 0; i < m.collectives.size(); ++i) {
      const CollectiveInstance &a = m.collectives[i], &e = one.collectives[i];
      ASSERT_TRUE(a.comm == e.comm && a.op == e.op && a.first_member == e.first_member &&
                  a.member_count == e.member_count && a.complete == e.complete)
          << "instance " << i << ", " << threads << " threads";
    }
    EXPECT_EQ(m.members, one.members) << threads << " threads";
    EXPECT_EQ(m.starts, one.starts) << threads << " threads";
    EXPECT_EQ(counts.incomplete_collectives, one_counts.incomplete_collectives);
    EXPECT_EQ(counts.mismatched_collectives, one_counts.mismatched_collectives);
    EXPECT_EQ(counts.clock_violations, one_counts.clock_violations);
  }
}

}  // namespace
}  // namespace collwrap
