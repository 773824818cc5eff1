// Collective digests (collective_digest.h): what each process of a job makes of its own
// members of the collectives, merged, must be what the whole trace's members give, and matching
// a partial trace with them must count as matching the whole trace does.
#include "collective_digest.h"

#include <gtest/gtest.h>

#include <tuple>

#include "divided_trace.h"
#include "matching.h"
#include "trace_builder.h"

namespace collwrap {
namespace {

auto fields(const DigestMember& m) {
  return std::tuple(m.position, m.loc, m.rank, m.thread, m.joined, m.end, m.call);
}

void expect_same(const CollectiveDigest& a, const CollectiveDigest& b) {
  EXPECT_EQ(
      std::tuple(a.comm, a.instance, a.members, a.op, a.family, a.root, a.mismatched, a.moves_data),
      std::tuple(b.comm, b.instance, b.members, b.op, b.family, b.root, b.mismatched,
                 b.moves_data));
  EXPECT_EQ(fields(a.first), fields(b.first));
  EXPECT_EQ(fields(a.last_joiner), fields(b.last_joiner));
  EXPECT_EQ(fields(a.first_to_leave), fields(b.first_to_leave));
  EXPECT_EQ(fields(a.root_member), fields(b.root_member));
}

// Every way of cutting the locations into contiguous shares.
std::vector<std::vector<LocationRange>> every_division(std::size_t locations) {
  std::vector<std::vector<LocationRange>> divisions;
  for (std::uint32_t cuts = 0; cuts < (1u << (locations - 1)); ++cuts) {
    std::vector<LocationRange> shares;
    std::size_t first = 0;
    for (std::size_t l = 1; l <= locations; ++l)
      if (l == locations || (cuts & (1u << (l - 1)))) {
        shares.push_back({first, l});
        first = l;
      }
    divisions.push_back(shares);
  }
  return divisions;
}

TEST(CollectiveDigests, EveryDivisionMergesToTheWholeTracesDigests) {
  const Trace whole = digested_collectives_trace();
  const CollectiveDigests expected =
      partial_digests(whole, match_trace(whole, 1), digestible_communicators(whole));
  // The world and ranks 1 and 2's communicator are digested; ranks 0 and 3 scan theirs, and
  // members of the other two join otherwise than at their Enter.
  ASSERT_EQ(expected.digests.size(), 11u);
  EXPECT_TRUE(expected.digested(0));
  EXPECT_TRUE(expected.digested(1));
  EXPECT_FALSE(expected.digested(2));
  EXPECT_FALSE(expected.digested(3));
  EXPECT_FALSE(expected.digested(4));
  EXPECT_TRUE(expected.digests[expected.find(0, 8)].mismatched);
  for (const std::vector<LocationRange>& shares : every_division(whole.locations.size())) {
    SCOPED_TRACE(std::to_string(shares.size()) + " processes, the first holding " +
                 std::to_string(shares[0].end));
    const CollectiveDigests merged = divided_digests(whole, shares);
    EXPECT_EQ(merged.digested_comm, expected.digested_comm);
    ASSERT_EQ(merged.digests.size(), expected.digests.size());
    for (std::size_t i = 0; i < expected.digests.size(); ++i)
      expect_same(merged.digests[i], expected.digests[i]);
  }
}

TEST(CollectiveDigests, TiesGoToTheMemberFirstInTheCommunicator) {
  const Trace whole = digested_collectives_trace();
  const CollectiveDigests d =
      partial_digests(whole, match_trace(whole, 1), digestible_communicators(whole));
  const CollectiveDigest& barrier = d.digests[d.find(0, 0)];
  EXPECT_EQ(barrier.last_joiner.rank, 1);     // ranks 1 and 3 join at 300
  EXPECT_EQ(barrier.first_to_leave.rank, 0);  // ranks 0 and 2 leave at 350
  EXPECT_EQ(barrier.members, 4u);
  EXPECT_FALSE(barrier.moves_data);
  const CollectiveDigest& bcast = d.digests[d.find(0, 2)];
  EXPECT_EQ(bcast.root, 2);
  EXPECT_EQ(bcast.root_member.rank, 2);
  EXPECT_TRUE(bcast.moves_data);
  const CollectiveDigest& reduce = d.digests[d.find(0, 3)];
  EXPECT_EQ(reduce.family, CollFamily::NToOne);
  EXPECT_EQ(reduce.root_member.rank, 1);
  EXPECT_EQ(reduce.last_joiner.rank, 2);  // ranks 2 and 3 enter together
  EXPECT_EQ(d.find(2, 0), kNone);         // the scans'
}

TEST(CollectiveDigests, PartsDisagreeingOnTheOperationMakeAMismatchInEitherOrder) {
  const Trace whole = digested_collectives_trace();
  CollectiveDigests a =
      partial_digests(whole, match_trace(whole, 1), digestible_communicators(whole));
  CollectiveDigests b = a;
  for (CollectiveDigest& d : b.digests) d.first.position += 10;  // after a's members
  b.digests[0].op = CollOp::Allreduce;
  const CollectiveDigests merged = merge_digests(a, b);
  // The job merges over a tree of processes: the order of the parts must not matter.
  const CollectiveDigests reversed = merge_digests(b, a);
  ASSERT_EQ(reversed.digests.size(), merged.digests.size());
  for (std::size_t i = 0; i < merged.digests.size(); ++i)
    expect_same(reversed.digests[i], merged.digests[i]);
  EXPECT_TRUE(merged.digests[0].mismatched);
  EXPECT_FALSE(merged.digests[1].mismatched);
  EXPECT_EQ(merged.digests[0].op, CollOp::Barrier);  // the first member's
  EXPECT_EQ(merged.digests[0].members, 8u);
}

TEST(CollectiveDigests, OnlyTheMainThreadsCollectivesAreDigested) {
  // A rank's threads may take turns in a communicator's collectives: a process that holds one
  // of them could not tell the instances apart.
  TraceBuilder b(2, 2);
  const std::uint32_t other = b.comm({0, 1}, "other");
  for (int r = 0; r < 2; ++r) {
    b.collective(b.call(r, "MPI_Barrier", 100, 200), CollOp::Barrier);
    b.collective(b.call(r, "MPI_Barrier", 300, 400, "t.c", 1, r == 0 ? 1 : 0), CollOp::Barrier,
                 other);
  }
  const Trace trace = b.finish();
  const std::vector<std::uint8_t> digested = digestible_communicators(trace);
  EXPECT_EQ(digested[0], kDigested);
  EXPECT_EQ(digested[other], kNotDigested);
}

TEST(CollectiveDigests, MatchingWithThemCountsAsTheWholeTrace) {
  const Trace whole = digested_collectives_trace();
  const Matching serial = match_trace(whole, 1);
  // Two allreduces, two broadcasts and two reductions to a root.
  ASSERT_EQ(serial.counts.clock_violations, 6u);
  ASSERT_EQ(serial.counts.mismatched_collectives, 1u);
  for (const std::vector<LocationRange>& shares : every_division(whole.locations.size())) {
    SCOPED_TRACE(std::to_string(shares.size()) + " processes, the first holding " +
                 std::to_string(shares[0].end));
    const auto [parts, matchings, digests] = divide(whole, shares);
    MatchCounts sum;
    std::uint64_t instances = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      sum += matchings[p].counts;
      for (const CollectiveInstance& c : matchings[p].collectives) {
        if (c.digest == kNone) continue;
        // The process holds the members, and the digest says the rest.
        const CollectiveDigest& d = digests->digests[c.digest];
        EXPECT_TRUE(c.complete);
        EXPECT_EQ(c.op, d.op);
        for (std::uint32_t m = 0; m < c.member_count; ++m)
          EXPECT_TRUE(parts[p].holds(matchings[p].members[c.first_member + m].loc));
        instances += parts[p].holds(d.first.loc);
      }
    }
    EXPECT_EQ(sum.clock_violations, serial.counts.clock_violations);
    EXPECT_EQ(sum.incomplete_collectives, serial.counts.incomplete_collectives);
    EXPECT_EQ(sum.mismatched_collectives, serial.counts.mismatched_collectives);
    EXPECT_EQ(instances, 11u);
  }
}

}  // namespace
}  // namespace collwrap
