#include "collective_matching.h"

#include <algorithm>
#include <functional>
#include <limits>

#include "collective_dependency.h"
#include "flat_map.h"
#include "group_by_key.h"
#include "op_count.h"
#include "parallel_for.h"

namespace collwrap {
namespace {

// One member's part in one collective on location `loc`: `member` is its CollectiveEnd or
// NbcComplete op, `start` its NbcRequest (kNone for blocking ones). `stream` numbers the
// (communicator, rank) pair whose sequence of collectives it belongs to. There is one per
// member of every instance, so it holds only what the trace cannot give.
struct Participation {
  std::uint32_t loc;
  std::uint32_t member;
  std::uint32_t start;
  std::uint32_t stream;

  OpRef member_op() const { return {loc, member}; }
  OpRef start_op() const { return start == kNone ? OpRef{} : OpRef{loc, start}; }
  // The call that started it, whose entry is its place in the call order.
  std::uint32_t first_call(const Location& l) const {
    return l.op_call[start == kNone ? member : start];
  }
  TimeNs enter(const Trace& trace) const {
    const Location& l = trace.locations[loc];
    return l.call_enter[first_call(l)];
  }
  TimeNs exit(const Trace& trace) const {
    const Location& l = trace.locations[loc];
    return l.call_leave[l.op_call[member]];
  }
};

struct Stream {
  std::uint32_t comm;
  std::uint32_t position;  // rank within the communicator
};

// Numbers (communicator, rank) streams and knows each member's rank within its communicator.
class Streams {
 public:
  explicit Streams(const Trace& trace) : trace_(trace), indexed_(trace.comms.size(), 0) {}

  // kNone when the communicator has no member list or does not contain the rank.
  std::uint32_t number(std::uint32_t comm, std::int32_t world_rank) {
    if (comm >= trace_.comms.size()) return kNone;
    index_members(comm);
    const std::uint32_t* position = position_.find(key(comm, world_rank));
    if (!position) return kNone;
    const std::uint32_t n =
        numbers_.insert(key(comm, world_rank), static_cast<std::uint32_t>(streams_.size()));
    if (n == streams_.size()) streams_.push_back({comm, *position});
    return n;
  }
  const std::vector<Stream>& all() const { return streams_; }

 private:
  static std::uint64_t key(std::uint32_t comm, std::int32_t rank) {
    return (std::uint64_t{comm} << 32) | static_cast<std::uint32_t>(rank);
  }
  void index_members(std::uint32_t comm) {
    if (indexed_[comm]) return;
    indexed_[comm] = 1;
    const std::vector<std::int32_t>& ranks = trace_.comms[comm].world_ranks;
    for (std::uint32_t p = 0; p < ranks.size(); ++p) position_.insert(key(comm, ranks[p]), p);
  }

  const Trace& trace_;
  std::vector<std::uint8_t> indexed_;
  FlatMap<std::uint64_t, U64Hash> position_;  // (comm, world rank) → rank in comm
  FlatMap<std::uint64_t, U64Hash> numbers_;   // (comm, world rank) → stream number
  std::vector<Stream> streams_;
};

// Each location's collectives in call order: a blocking one at its CollectiveEnd, a
// nonblocking one at its NbcRequest (with comm and op from the NbcComplete that closed it).
std::vector<Participation> collect_participations(const Trace& trace, const Matching& m,
                                                  Streams& streams, const LocationRange& counted,
                                                  std::uint64_t& invalid) {
  std::vector<Participation> out;
  out.reserve(count_ops(trace, {OpKind::CollectiveEnd, OpKind::NbcRequest}));
  // A location's rank is fixed, so its stream follows from the communicator: numbered once
  // per location and communicator rather than looked up for each op.
  constexpr std::uint32_t kUnknown = kNone - 1;
  std::vector<std::uint32_t> stream_of_comm(trace.comms.size());
  for (std::uint32_t li = 0; li < trace.locations.size(); ++li) {
    const Location& l = trace.locations[li];
    std::fill(stream_of_comm.begin(), stream_of_comm.end(), kUnknown);
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      std::uint32_t member = op, start = kNone;
      switch (l.op_kind[op]) {
        case OpKind::CollectiveEnd:
          break;
        case OpKind::NbcRequest:
          member = m.partner_of(li, op);
          if (member == kNone || l.op_kind[member] != OpKind::NbcComplete) continue;
          start = op;
          break;
        case OpKind::NbcComplete:  // already counted at its NbcRequest, unless it has none
          if (m.partner_of(li, op) != kNone) continue;
          break;
        default:
          continue;
      }
      const std::uint32_t comm = l.op_comm[member];
      std::uint32_t stream = kNone;
      if (comm < stream_of_comm.size()) {
        if (stream_of_comm[comm] == kUnknown) stream_of_comm[comm] = streams.number(comm, l.rank);
        stream = stream_of_comm[comm];
      }
      if (stream == kNone) {
        invalid += counted.contains(li);
        continue;
      }
      out.push_back({li, member, start, stream});
    }
  }
  return out;
}

// Members that left before someone they depend on had entered, given in rank-in-communicator
// order (collective_dependency.h).
std::uint64_t count_violations(const Trace& trace, const CollectiveInstance& inst, bool moves_data,
                               const std::vector<const Participation*>& members) {
  const CollFamily family = clock_dependency_family(
      inst.family, moves_data,
      upc_sync_of(trace.locations[members.front()->loc], members.front()->member));
  if (family == CollFamily::Other) return 0;
  const auto count = static_cast<std::uint32_t>(members.size());
  std::uint32_t root = count;
  for (std::uint32_t i = 0; i < count; ++i)
    if (trace.locations[members[i]->loc].rank == inst.root) root = i;
  std::uint64_t violations = 0;
  for_each_collective_dependency(
      family, count, root, &trace.comms[inst.comm].in_neighbors,
      [&](std::uint32_t i) { return members[i]->enter(trace); },
      [&](std::uint32_t i, TimeNs entered) { violations += members[i]->exit(trace) < entered; });
  return violations;
}

// The instance whose members (in rank-in-communicator order) go to Matching::members from
// `first_member` on. The instance is what its first member says; the others must agree. Its
// figures count into `c` when its first member is at a `counted` location and its
// communicator is `not_digested` (apply_digests counts those).
CollectiveInstance match_instance(const Trace& trace, Matching& m, std::uint32_t comm,
                                  std::uint32_t first_member,
                                  const std::vector<const Participation*>& members,
                                  bool not_digested, const LocationRange& counted, MatchCounts& c) {
  const auto op_of = [&](const Participation& p) {
    return trace.locations[p.loc].op_coll[p.member];
  };
  const auto root_of = [&](const Participation& p) {
    return trace.locations[p.loc].op_peer[p.member];
  };
  const auto nonblocking = [&](const Participation& p) {
    return trace.locations[p.loc].op_kind[p.member] == OpKind::NbcComplete;
  };
  const Participation& head = *members.front();
  const Location& head_loc = trace.locations[head.loc];
  const RegionRole role = trace.regions[head_loc.call_region[head.first_call(head_loc)]].role;
  CollectiveInstance inst;
  inst.comm = comm;
  inst.op = op_of(head);
  inst.family = collective_family(inst.op, role);
  inst.root = root_of(head);
  inst.nonblocking = nonblocking(head);
  inst.first_member = first_member;
  inst.member_count = static_cast<std::uint32_t>(members.size());
  inst.complete = members.size() == trace.comms[comm].world_ranks.size();
  bool mismatched = false, moves_data = false;
  std::uint32_t k = first_member;
  for (const Participation* p : members) {
    const Location& l = trace.locations[p->loc];
    mismatched |=
        op_of(*p) != inst.op || root_of(*p) != inst.root || nonblocking(*p) != inst.nonblocking;
    moves_data |= l.bytes_sent(p->member) > 0 || l.bytes_received(p->member) > 0;
    m.members[k] = p->member_op();
    m.starts[k++] = p->start_op();
  }
  if (not_digested && counted.contains(head.loc)) {
    c.incomplete_collectives += !inst.complete;
    c.mismatched_collectives += mismatched;
    c.clock_violations += count_violations(trace, inst, moves_data, members);
  }
  return inst;
}

// Where each instance's members go: the communicators' streams side by side, and for
// every instance (all communicators', one after another) its first member in
// Matching::members.
struct InstancePlan {
  struct Block {
    std::uint32_t comm;
    std::size_t first_stream, last_stream;  // into `order`
    std::uint32_t first_instance;           // global index of its instance 0
  };
  std::vector<std::uint32_t> order;  // streams of one communicator side by side, by rank in it
  std::vector<Block> blocks;         // by first_instance
  std::vector<std::uint32_t> first_member;  // instances + 1 offsets

  std::size_t instances() const { return first_member.size() - 1; }
  // The block that holds global instance i.
  std::size_t block_of(std::size_t i) const {
    return static_cast<std::size_t>(
        std::upper_bound(blocks.begin(), blocks.end(), i,
                         [](std::size_t x, const Block& b) { return x < b.first_instance; }) -
        blocks.begin() - 1);
  }
};

// The n-th instance of a communicator has a member from each of its streams that has more
// than n collectives: counted from the streams' sizes, largest first, without visiting the
// members.
InstancePlan plan_instances(const std::vector<Stream>& all, const KeyGroups& groups) {
  InstancePlan plan;
  plan.order.resize(all.size());
  for (std::uint32_t s = 0; s < plan.order.size(); ++s) plan.order[s] = s;
  std::sort(plan.order.begin(), plan.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return all[a].comm != all[b].comm ? all[a].comm < all[b].comm
                                      : all[a].position < all[b].position;
  });
  plan.first_member.push_back(0);
  std::vector<std::uint32_t> sizes;
  for (std::size_t first = 0; first < plan.order.size();) {
    const std::uint32_t comm = all[plan.order[first]].comm;
    std::size_t last = first;
    sizes.clear();
    for (; last < plan.order.size() && all[plan.order[last]].comm == comm; ++last)
      sizes.push_back(groups.size(plan.order[last]));
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    plan.blocks.push_back({comm, first, last, static_cast<std::uint32_t>(plan.instances())});
    std::size_t members = sizes.size();  // streams with more than n collectives
    for (std::uint32_t n = 0; n < sizes.front(); ++n) {
      while (sizes[members - 1] <= n) --members;
      plan.first_member.push_back(plan.first_member.back() + static_cast<std::uint32_t>(members));
    }
    first = last;
  }
  return plan;
}

}  // namespace

void match_collectives(const Trace& trace, Matching& m, MatchCounts& counts,
                       const LocationRange& counted,
                       const std::vector<std::uint8_t>* digested_comms, unsigned threads) {
  Streams streams(trace);
  const std::vector<Participation> parts =
      collect_participations(trace, m, streams, counted, counts.invalid_ops);
  const std::vector<Stream>& all = streams.all();
  const KeyGroups groups = group_by_key(
      parts, all.size(), [](const Participation& p) { return p.stream; },
      [](const Participation& p) { return p.loc; },
      [&](const Participation& p) { return p.enter(trace); });
  const InstancePlan plan = plan_instances(all, groups);

  // Every instance's place is known, so ranges of instances are matched side by side.
  m.collectives.resize(plan.instances());
  m.members.resize(plan.first_member.back());
  m.starts.resize(plan.first_member.back());
  constexpr std::size_t kInstancesPerRange = 4096;
  std::vector<MatchCounts> range_counts(range_count(plan.instances(), kInstancesPerRange));
  parallel_for_ranges(
      plan.instances(), kInstancesPerRange, threads,
      [&](std::size_t range, std::size_t first, std::size_t end) {
        std::vector<const Participation*> members;  // of one instance
        MatchCounts& c = range_counts[range];
        std::size_t b = plan.block_of(first);
        for (std::size_t i = first; i < end; ++i) {
          while (b + 1 < plan.blocks.size() && plan.blocks[b + 1].first_instance <= i) ++b;
          const InstancePlan::Block& block = plan.blocks[b];
          const std::uint32_t n = static_cast<std::uint32_t>(i - block.first_instance);
          members.clear();
          for (std::size_t s = block.first_stream; s < block.last_stream; ++s) {
            const std::uint32_t stream = plan.order[s];
            if (n < groups.size(stream)) members.push_back(&parts[groups.at(stream, n)]);
          }
          m.collectives[i] = match_instance(trace, m, block.comm, plan.first_member[i], members,
                                            !digested(digested_comms, block.comm), counted, c);
        }
      });
  for (const MatchCounts& c : range_counts) counts += c;
}

}  // namespace collwrap
