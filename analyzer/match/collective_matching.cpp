#include "collective_matching.h"

#include <algorithm>
#include <limits>

#include "collective_dependency.h"
#include "flat_map.h"
#include "group_by_key.h"
#include "op_count.h"

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
  for (std::uint32_t li = 0; li < trace.locations.size(); ++li) {
    const Location& l = trace.locations[li];
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
      const std::uint32_t stream = streams.number(l.op_comm[member], l.rank);
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

}  // namespace

void match_collectives(const Trace& trace, Matching& m, MatchCounts& counts,
                       const LocationRange& counted,
                       const std::vector<std::uint8_t>* digested_comms) {
  Streams streams(trace);
  const std::vector<Participation> parts =
      collect_participations(trace, m, streams, counted, counts.invalid_ops);
  const std::vector<Stream>& all = streams.all();
  const KeyGroups groups = group_by_key(
      parts, all.size(), [](const Participation& p) { return p.stream; },
      [](const Participation& p) { return p.loc; },
      [&](const Participation& p) { return p.enter(trace); });

  // Streams of one communicator side by side, in rank-in-communicator order.
  std::vector<std::uint32_t> order(all.size());
  for (std::uint32_t s = 0; s < order.size(); ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return all[a].comm != all[b].comm ? all[a].comm < all[b].comm
                                      : all[a].position < all[b].position;
  });

  m.members.reserve(parts.size());
  m.starts.reserve(parts.size());
  std::vector<const Participation*> members;
  for (std::size_t first = 0; first < order.size();) {
    const std::uint32_t comm = all[order[first]].comm;
    std::size_t last = first;
    std::uint32_t instances = 0;
    for (; last < order.size() && all[order[last]].comm == comm; ++last)
      instances = std::max(instances, groups.size(order[last]));
    const std::size_t comm_size = trace.comms[comm].world_ranks.size();

    for (std::uint32_t n = 0; n < instances; ++n) {
      members.clear();
      for (std::size_t s = first; s < last; ++s) {
        const std::uint32_t stream = order[s];
        if (n < groups.size(stream)) members.push_back(&parts[groups.at(stream, n)]);
      }
      // The instance is what its first member says; the others must agree.
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
      inst.first_member = static_cast<std::uint32_t>(m.members.size());
      inst.member_count = static_cast<std::uint32_t>(members.size());
      inst.complete = members.size() == comm_size;
      bool mismatched = false, moves_data = false;
      for (const Participation* p : members) {
        const Location& l = trace.locations[p->loc];
        mismatched |=
            op_of(*p) != inst.op || root_of(*p) != inst.root || nonblocking(*p) != inst.nonblocking;
        moves_data |= l.bytes_sent(p->member) > 0 || l.bytes_received(p->member) > 0;
        m.members.push_back(p->member_op());
        m.starts.push_back(p->start_op());
      }
      // A digested communicator's instances are counted by apply_digests.
      if (!digested(digested_comms, comm) && counted.contains(head.loc)) {
        counts.incomplete_collectives += !inst.complete;
        counts.mismatched_collectives += mismatched;
        counts.clock_violations += count_violations(trace, inst, moves_data, members);
      }
      m.collectives.push_back(inst);
    }
    first = last;
  }
}

}  // namespace collwrap
