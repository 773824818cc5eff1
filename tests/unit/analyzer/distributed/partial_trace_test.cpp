// What each analyzer process of a job holds of a divided archive: its own locations and the
// ghosts of the others' (ghost_selection.h). Matching a process's partial trace must pair each
// of its own sends, receives and collective members exactly as matching the whole trace does,
// for every way of dividing the locations, including ways that part a rank's threads.
#include "partial_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "catalog.h"
#include "divided_trace.h"
#include "request_linkage.h"

namespace collwrap {
namespace {

using MessageEnds = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

MessageEnds ends(OpRef send, OpRef recv) {
  return {send.loc, send.op, recv.loc, recv.op};
}

// What defines a collective instance: its figures and members (with their posts), in order.
using InstanceView = std::tuple<std::uint32_t, CollOp, CollFamily, std::int32_t, bool, bool,
                                std::vector<MessageEnds>>;

bool has_held_member(const PartialTrace& part, const Matching& m, const CollectiveInstance& c) {
  for (std::uint32_t i = 0; i < c.member_count; ++i)
    if (part.holds(m.members[c.first_member + i].loc)) return true;
  return false;
}

InstanceView view(const CollectiveInstance& c, const Matching& m,
                  const PartialTrace* mapped_by = nullptr) {
  std::vector<MessageEnds> members;
  for (std::uint32_t i = c.first_member; i < c.first_member + c.member_count; ++i) {
    OpRef member = m.members[i], start = m.starts[i];
    if (mapped_by) {
      member = mapped_by->original_op(member);
      start = mapped_by->original_op(start);
    }
    members.push_back(ends(member, start));
  }
  return {c.comm, c.op, c.family, c.root, c.nonblocking, c.complete, members};
}

// Compares what process `self` matches on its partial trace with the whole trace's matching.
void expect_held_matching_as_whole(const Trace& whole, const std::vector<LocationRange>& shares,
                                   unsigned self) {
  SCOPED_TRACE("process " + std::to_string(self) + " of " + std::to_string(shares.size()));
  const PartialTrace part = partial_trace(whole, shares, self);
  const Matching serial = match_trace(whole, 1);
  const Matching partial = match_trace(part.trace, 1);

  // Each message with the ops that started and completed its send, and posted and completed
  // its receive (send_done, recv_post), which the rules read.
  using MessageView = std::pair<MessageEnds, MessageEnds>;
  std::set<MessageView> expected_messages, messages;
  for (const Message& m : serial.messages)
    if (part.holds(m.send.loc) || part.holds(m.recv.loc))
      expected_messages.insert(
          {ends(m.send, m.recv), ends(send_done(whole, serial, m), recv_post(serial, m))});
  for (const Message& m : partial.messages)
    if (part.holds(m.send.loc) || part.holds(m.recv.loc))
      messages.insert({ends(part.original_op(m.send), part.original_op(m.recv)),
                       ends(part.original_op(send_done(part.trace, partial, m)),
                            part.original_op(recv_post(partial, m)))});
  EXPECT_FALSE(expected_messages.empty());
  EXPECT_EQ(messages, expected_messages);

  std::set<InstanceView> expected_instances, instances;
  for (const CollectiveInstance& c : serial.collectives)
    if (has_held_member(part, serial, c)) expected_instances.insert(view(c, serial));
  for (const CollectiveInstance& c : partial.collectives)
    if (has_held_member(part, partial, c)) instances.insert(view(c, partial, &part));
  EXPECT_FALSE(expected_instances.empty());
  EXPECT_EQ(instances, expected_instances);

  for (std::size_t l = shares[self].first; l < shares[self].end; ++l)
    EXPECT_EQ(partial.request_partner[l], serial.request_partner[l]) << "location " << l;
}

TEST(PartialTrace, EveryDivisionMatchesItsOwnLocationsAsTheWholeTrace) {
  const Trace whole = varied_trace();
  ASSERT_EQ(whole.locations.size(), std::size_t{kVariedRanks * kVariedThreads});
  for (unsigned processes = 1; processes <= whole.locations.size(); ++processes) {
    const std::vector<LocationRange> shares =
        split_locations(events_per_location(whole), processes);
    for (unsigned self = 0; self < processes; ++self)
      expect_held_matching_as_whole(whole, shares, self);
  }
}

std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t,
           std::uint64_t, std::uint64_t>
figures(const MatchCounts& c) {
  return {c.messages,           c.unmatched_sends,  c.unmatched_receives, c.incomplete_collectives,
          c.unmatched_requests, c.clock_violations, c.invalid_ops,        c.mismatched_collectives};
}

TEST(PartialTrace, CountsAtHeldLocationsAddUpToTheWholeTracesCounts) {
  const Trace whole = varied_trace();
  const MatchCounts serial = match_trace(whole, 1).counts;
  // Every count has something to count, or the test would not see it go wrong.
  for (const std::uint64_t count :
       {serial.messages, serial.unmatched_sends, serial.unmatched_receives,
        serial.incomplete_collectives, serial.unmatched_requests, serial.clock_violations,
        serial.invalid_ops})
    EXPECT_GT(count, 0u);
  const auto check = [&](const std::vector<LocationRange>& shares) {
    for (const Digests digests : {Digests::Made, Digests::None}) {
      const auto [parts, matchings, made] = divide(whole, shares, digests);
      MatchCounts sum;
      for (const Matching& m : matchings) sum += m.counts;
      EXPECT_EQ(figures(sum), figures(serial))
          << shares.size() << " processes" << (made ? ", with digests" : "");
    }
  };
  for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
    check(split_locations(events_per_location(whole), processes));
  check({{0, 3}, {3, 5}, {5, 8}});  // rank 1's threads apart
}

TEST(PartialTrace, ARanksThreadsHeldApartShareTheirKeys) {
  // Location 3 (rank 1, thread 1) apart from location 2 (rank 1, thread 0): each process
  // needs the other's sends on the keys both threads send on.
  const Trace whole = varied_trace();
  const std::vector<LocationRange> shares{{0, 3}, {3, 5}, {5, 8}};
  for (unsigned self = 0; self < shares.size(); ++self)
    expect_held_matching_as_whole(whole, shares, self);
}

TEST(PartialTrace, GhostsHoldOnlyWhatTheHoldersLocationsRead) {
  // Of rank 3's thread 0, the process that holds only rank 0's thread 0 needs the sends to
  // rank 0 and the world collectives, not the messages rank 3 exchanges with rank 2.
  const Trace whole = varied_trace();
  const std::vector<LocationRange> shares{{0, 1}, {1, 8}};
  const PartialTrace part = partial_trace(whole, shares, 0);
  const Location& ghost = part.trace.locations[6];  // rank 3, thread 0
  ASSERT_GT(ghost.ops(), 0u);
  EXPECT_LT(ghost.ops(), whole.locations[6].ops());
  for (std::uint32_t op = 0; op < ghost.ops(); ++op) {
    const OpRef original = part.original_op({6, op});
    const Location& l = whole.locations[6];
    EXPECT_EQ(ghost.op_kind[op], l.op_kind[original.op]);
    EXPECT_EQ(ghost.op_time(op), l.op_time(original.op));
    EXPECT_EQ(ghost.bytes_sent(op), l.bytes_sent(original.op));
    EXPECT_EQ(ghost.bytes_received(op), l.bytes_received(original.op));
    const std::uint32_t call = ghost.op_call[op];
    EXPECT_EQ(part.original_call(6, call), l.op_call[original.op]);
    EXPECT_EQ(ghost.call_enter[call], l.call_enter[l.op_call[original.op]]);
    EXPECT_EQ(ghost.call_callsite[call], l.call_callsite[l.op_call[original.op]]);
    if (ghost.op_kind[op] == OpKind::Send || ghost.op_kind[op] == OpKind::Isend) {
      EXPECT_EQ(ghost.op_peer[op], 0);
    }
    if (ghost.op_kind[op] == OpKind::Recv || ghost.op_kind[op] == OpKind::Irecv) {
      ADD_FAILURE() << "rank 3 receives only from rank 2";
    }
  }
}

// Every instance a rule reports at a location, as the set the rule gives.
class InstanceSet : public InstanceSink {
 public:
  using Entry = std::tuple<std::uint32_t, std::uint32_t, TimeNs, std::vector<Peer>, std::uint32_t,
                           std::uint8_t, std::uint8_t, TimeNs, TimeNs>;
  // `at`: when given, only instances at the locations it holds.
  explicit InstanceSet(const PartialTrace* at = nullptr) : at_(at) {}
  void add(const Instance& i) override {
    if (at_ && !at_->holds(i.loc)) return;
    entries.insert({i.loc, i.call, i.idle, std::vector<Peer>(i.peers.begin(), i.peers.end()),
                    i.detail.related_call, static_cast<std::uint8_t>(i.detail.send_mode),
                    static_cast<std::uint8_t>(i.detail.order), i.detail.optimal_distance,
                    i.detail.actual_distance});
  }
  std::set<Entry> entries;

 private:
  const PartialTrace* at_;
};

TEST(PartialTrace, RulesThatRunDividedFindAtHeldLocationsWhatTheyFindOnTheWholeTrace) {
  // The rules that read, beyond a process's own locations, only the partners of its messages
  // and collectives (what ghosts hold) and the traffic totals that the processes add up.
  const RuleOptions options;
  std::vector<const Pattern*> rules;
  for (const Pattern* rule : kPatternCatalog)
    if (runs_divided(rule->reach)) rules.push_back(rule);
  std::set<const Pattern*> compared;  // the rules with instances in some test trace
  std::size_t digested_instances = 0;
  for (const Trace& whole : divided_test_traces()) {
    const Matching serial = match_trace(whole, 1);
    std::vector<InstanceSet> whole_instances(rules.size());
    for (std::size_t r = 0; r < rules.size(); ++r) {
      rules[r]->find({whole, serial, options}, whole_instances[r]);
      if (!whole_instances[r].entries.empty()) compared.insert(rules[r]);
    }
    for (unsigned processes = 2; processes <= whole.locations.size(); ++processes) {
      const std::vector<LocationRange> shares =
          split_locations(events_per_location(whole), processes);
      for (const Digests digests : {Digests::Made, Digests::None}) {
        SCOPED_TRACE(digests == Digests::Made ? "with digests" : "members as ghosts");
        const auto [parts, matchings, made] = divide(whole, shares, digests);
        if (made) digested_instances += made->digests.size();
        const TrafficTotals totals = divided_totals(parts, matchings, options);
        for (std::size_t r = 0; r < rules.size(); ++r) {
          SCOPED_TRACE(std::string(rules[r]->id));
          for (unsigned self = 0; self < processes; ++self) {
            InstanceSet found(&parts[self]);
            rules[r]->find({parts[self].trace, matchings[self], options, &totals}, found);
            std::set<InstanceSet::Entry> expected;
            for (const InstanceSet::Entry& e : whole_instances[r].entries)
              if (parts[self].holds(std::get<0>(e))) expected.insert(e);
            EXPECT_EQ(found.entries, expected) << "process " << self << " of " << processes;
          }
        }
      }
    }
  }
  for (const Pattern* rule : rules)
    EXPECT_TRUE(compared.contains(rule)) << rule->id << ": no test trace has instances";
  EXPECT_GT(digested_instances, 0u);
}

}  // namespace
}  // namespace collwrap
