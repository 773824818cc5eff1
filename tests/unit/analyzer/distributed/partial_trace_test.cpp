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
#include "ghost_selection.h"
#include "request_linkage.h"
#include "trace_builder.h"

namespace collwrap {
namespace {

constexpr int kRanks = 4, kThreads = 2;

// Four ranks of two threads each (locations 0…7, rank by rank). Each step, one thread of every
// rank sends to the next rank, whose other thread receives it: blocking or nonblocking on both
// ends, with three tags, so that both threads of a rank send on one key (a mixed key). Besides:
// messages on a communicator of ranks 0 and 2, an MPI_Allreduce over the world on thread 0,
// an MPI_Bcast over ranks 1-3 on thread 1, an MPI_Ibarrier over the world, a cancelled
// send followed by one received on its key, and a send nobody receives.
Trace varied_trace() {
  TraceBuilder b(kRanks, kThreads);
  const std::uint32_t pair = b.comm({0, 2}, "pair");
  const std::uint32_t upper = b.comm({1, 2, 3}, "upper");
  std::uint64_t request = 1;
  // Deterministic offsets in [0, 100), so that some senders and some receivers are late.
  unsigned seed = 12345;
  const auto jitter = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<TimeNs>((seed >> 16) % 100);
  };
  for (int step = 0; step < 12; ++step) {
    const TimeNs t0 = 10000 * step;
    const int sender = step % kThreads, receiver = (step + 1) % kThreads, tag = step % 3;
    const std::uint64_t bytes = step % 5 == 0 ? 1 << 20 : 8 + step;  // some above any eager limit
    for (int r = 0; r < kRanks; ++r) {
      const int to = (r + 1) % kRanks;
      const TimeNs s = t0 + jitter(), v = t0 + jitter();  // send and receive begin
      if ((step + r) % 2 == 0) {
        b.send(b.call(r, "MPI_Send", s, std::max(s, v) + 20, "v.c", 10, sender), to, tag, bytes);
      } else {
        const std::uint64_t id = request++;
        b.isend(b.call(r, "MPI_Isend", s, s + 2, "v.c", 11, sender), to, tag, bytes, id);
        b.isend_complete(b.call(r, "MPI_Wait", s + 10 + jitter(), v + 150, "v.c", 12, sender), id);
      }
      if (step % 3 == 0) {
        b.recv(b.call(to, "MPI_Recv", v, std::max(s, v) + 30, "v.c", 20, receiver), r, tag, bytes);
      } else {
        const std::uint64_t id = request++;
        b.irecv_request(b.call(to, "MPI_Irecv", v, v + 2, "v.c", 21, receiver), id);
        b.irecv(b.call(to, "MPI_Wait", v + 5 + jitter(), std::max(s, v) + 140, "v.c", 22, receiver),
                r, tag, bytes, id);
      }
    }
    if (step % 4 == 1) {
      const TimeNs s = t0 + 1000 + jitter(), v = t0 + 1000 + jitter();
      b.send(b.call(0, "MPI_Send", s, std::max(s, v) + 10, "v.c", 30, sender), 2, 5, 16, pair);
      b.recv(b.call(2, "MPI_Recv", v, std::max(s, v) + 15, "v.c", 31, receiver), 0, 5, 16, pair);
    }
    if (step % 3 == 2) {
      for (int r = 0; r < kRanks; ++r)
        b.collective(
            b.call(r, "MPI_Allreduce", t0 + 2000 + jitter(), t0 + 2150 + jitter(), "v.c", 40),
            CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
      for (int r = 0; r < kRanks; ++r)
        b.collective(b.call(r, "MPI_Reduce", t0 + 2500 + jitter(), t0 + 2650, "v.c", 43),
                     CollOp::Reduce, 0, 1, r == 1 ? 0 : 8, r == 1 ? 32 : 0);
      for (int r = 1; r < kRanks; ++r)
        b.collective(b.call(r, "MPI_Bcast", t0 + 3000 + jitter(), t0 + 3150, "v.c", 41, 1),
                     CollOp::Bcast, upper, 2, r == 2 ? 64 : 0, r == 2 ? 0 : 64);
    }
    if (step % 3 == 1)
      for (int r = 0; r < kRanks; ++r)
        b.collective(
            b.call(r, "MPI_Barrier", t0 + 2000 + jitter(), t0 + 2150 + jitter(), "v.c", 42),
            CollOp::Barrier);
    if (step % 4 == 3) {
      for (int r = 0; r < kRanks; ++r) {
        const std::uint64_t id = request++;
        const TimeNs post = t0 + 4000 + jitter();
        b.nbc_request(b.call(r, "MPI_Ibarrier", post, post + 5, "v.c", 50, 1), id);
        b.nbc_complete(b.call(r, "MPI_Wait", t0 + 4100 + jitter(), t0 + 4250, "v.c", 51, 1),
                       CollOp::Barrier, id);
      }
    }
    if (step == 5) {
      const std::uint64_t id = request++;
      b.isend(b.call(3, "MPI_Isend", t0 + 5000, t0 + 5001, "v.c", 60), 0, 9, 4, id);
      b.request_cancelled(b.call(3, "MPI_Wait", t0 + 5010, t0 + 5020, "v.c", 61), id);
      // Sent again on the same key: the receive takes this one, not the cancelled one.
      b.send(b.call(3, "MPI_Send", t0 + 5060, t0 + 5070, "v.c", 62), 0, 9, 4);
      b.recv(b.call(0, "MPI_Recv", t0 + 5030, t0 + 5080, "v.c", 63), 3, 9, 4);
    }
    if (step == 7) b.send(b.call(1, "MPI_Send", t0 + 6000, t0 + 6010, "v.c", 70, 1), 3, 42, 4);
  }
  // What the matching counts besides messages and instances: a receive nobody sends to, a
  // send on a communicator the archive does not define, a completion of a request never
  // posted, a barrier only one member of its communicator calls, and a message received before
  // it was sent (a clock violation).
  b.recv(b.call(2, "MPI_Recv", 150000, 150100, "v.c", 80, 1), 1, 77, 4);
  b.send(b.call(1, "MPI_Send", 150000, 150010, "v.c", 81), 0, 1, 4, 999);
  b.isend_complete(b.call(0, "MPI_Wait", 150000, 150010, "v.c", 82), 999999);
  b.collective(b.call(0, "MPI_Barrier", 151000, 151100, "v.c", 83), CollOp::Barrier, pair);
  b.send(b.call(2, "MPI_Send", 160000, 160010, "v.c", 84), 3, 88, 4);
  b.recv(b.call(3, "MPI_Recv", 155000, 159000, "v.c", 85), 2, 88, 4);
  return b.finish();
}

std::vector<std::uint64_t> events_per_location(const Trace& trace) {
  std::vector<std::uint64_t> events;
  for (const Location& l : trace.locations) events.push_back(2 * l.calls() + l.ops());
  return events;
}

// Process `self`'s partial trace, as the exchange would leave it: its own locations copied
// from the whole trace, every other process's ghosts for it packed there and read back.
PartialTrace partial_trace(const Trace& whole, const std::vector<LocationRange>& shares,
                           unsigned self) {
  const ProcessMap map(whole, shares);
  Matching links;
  link_requests(whole, links, 1);
  PartialTrace part{whole, shares[self], {}, {}};
  for (std::size_t l = 0; l < whole.locations.size(); ++l) {
    if (part.holds(static_cast<std::uint32_t>(l))) continue;
    Location& other = part.trace.locations[l];
    Location identity;  // what every process knows of a location from the definitions
    identity.rank = other.rank;
    identity.thread = other.thread;
    identity.node = other.node;
    other = std::move(identity);
  }
  for (unsigned p = 0; p < shares.size(); ++p) {
    if (p == self) continue;
    const std::vector<char> bytes = pack_ghosts(whole, links, shares[p], map).at(self);
    for (ReceivedGhost& g : read_ghosts(bytes)) part.install(std::move(g));
  }
  return part;
}

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
  ASSERT_EQ(whole.locations.size(), std::size_t{kRanks * kThreads});
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
    MatchCounts sum;
    for (unsigned self = 0; self < shares.size(); ++self) {
      const PartialTrace part = partial_trace(whole, shares, self);
      sum += match_trace(part.trace, 1, part.held).counts;
    }
    EXPECT_EQ(figures(sum), figures(serial)) << shares.size() << " processes";
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

TEST(PartialTrace, GhostBytesCutShortAreAnError) {
  const Trace whole = varied_trace();
  const std::vector<LocationRange> shares{{0, 4}, {4, 8}};
  Matching links;
  link_requests(whole, links, 1);
  const std::vector<char> bytes =
      pack_ghosts(whole, links, shares[1], ProcessMap(whole, shares)).at(0);
  ASSERT_GT(bytes.size(), 16u);
  EXPECT_EQ(read_ghosts(bytes).size(), 4u);
  EXPECT_THROW(read_ghosts(std::span(bytes).first(bytes.size() - 3)), std::runtime_error);
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

TEST(PartialTrace, MessageAndCollectiveRulesFindAtHeldLocationsWhatTheyFindOnTheWholeTrace) {
  // The rules that read, beyond a process's own locations, only the partners of its messages
  // and collectives: what ghosts hold.
  const Trace whole = varied_trace();
  const Matching serial = match_trace(whole, 1);
  const RuleOptions options;
  for (const std::string_view id :
       {"late_sender", "late_receiver", "early_wait", "wait_at_barrier", "barrier_completion",
        "wait_at_nxn", "nxn_completion", "late_broadcast", "early_reduce"}) {
    SCOPED_TRACE(std::string(id));
    const Pattern* rule = *std::find_if(kPatternCatalog.begin(), kPatternCatalog.end(),
                                        [&](const Pattern* p) { return p->id == id; });
    InstanceSet whole_instances;
    rule->find({whole, serial, options}, whole_instances);
    EXPECT_FALSE(whole_instances.entries.empty()) << "the trace has none to compare";
    for (unsigned processes = 2; processes <= whole.locations.size(); ++processes) {
      const std::vector<LocationRange> shares =
          split_locations(events_per_location(whole), processes);
      for (unsigned self = 0; self < processes; ++self) {
        const PartialTrace part = partial_trace(whole, shares, self);
        const Matching matching = match_trace(part.trace, 1);
        InstanceSet found(&part);
        rule->find({part.trace, matching, options}, found);
        std::set<InstanceSet::Entry> expected;
        for (const InstanceSet::Entry& e : whole_instances.entries)
          if (part.holds(std::get<0>(e))) expected.insert(e);
        EXPECT_EQ(found.entries, expected) << "process " << self << " of " << processes;
      }
    }
  }
}

}  // namespace
}  // namespace collwrap
