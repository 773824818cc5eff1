#include "collective_matching.h"

#include <algorithm>
#include <limits>

#include "collective_dependency.h"
#include "flat_map.h"
#include "group_by_key.h"
#include "op_count.h"

namespace collwrap {
namespace {

// One member's part in one collective: `member` is its CollectiveEnd or NbcComplete op,
// `start` its NbcRequest (invalid for blocking ones). `stream` numbers the (communicator,
// rank) pair whose sequence of collectives it belongs to. The rest is copied from the trace
// while its locations are walked in order: building instances then reads one participation
// per member instead of a scattered handful of columns.
struct Participation {
  TimeNs enter;  // entry into the call that started it (its place in the call order)
  TimeNs exit;   // exit from the call that completed it
  OpRef member;
  OpRef start;
  std::uint32_t stream;
  std::int32_t rank;
  std::int32_t root;
  CollOp op;
  RegionRole role;  // of the call that started it
  bool nonblocking;
  bool moves_data;
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
                                                  Streams& streams, std::uint64_t& invalid) {
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
        ++invalid;
        continue;
      }
      const std::uint32_t first_call = l.op_call[start == kNone ? member : start];
      out.push_back({.enter = l.call_enter[first_call],
                     .exit = l.call_leave[l.op_call[member]],
                     .member = {li, member},
                     .start = start == kNone ? OpRef{} : OpRef{li, start},
                     .stream = stream,
                     .rank = l.rank,
                     .root = l.op_peer[member],
                     .op = l.op_coll[member],
                     .role = trace.regions[l.call_region[first_call]].role,
                     .nonblocking = l.op_kind[member] == OpKind::NbcComplete,
                     .moves_data = l.bytes_sent(member) > 0 || l.bytes_received(member) > 0});
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
      upc_sync_of(trace.locations[members.front()->member.loc], members.front()->member.op));
  if (family == CollFamily::Other) return 0;
  const auto count = static_cast<std::uint32_t>(members.size());
  std::uint32_t root = count;
  for (std::uint32_t i = 0; i < count; ++i)
    if (members[i]->rank == inst.root) root = i;
  std::uint64_t violations = 0;
  for_each_collective_dependency(
      family, count, root, &trace.comms[inst.comm].in_neighbors,
      [&](std::uint32_t i) { return members[i]->enter; },
      [&](std::uint32_t i, TimeNs entered) { violations += members[i]->exit < entered; });
  return violations;
}

}  // namespace

void match_collectives(const Trace& trace, Matching& m, MatchCounts& counts) {
  Streams streams(trace);
  const std::vector<Participation> parts =
      collect_participations(trace, m, streams, counts.invalid_ops);
  const std::vector<Stream>& all = streams.all();
  const KeyGroups groups = group_by_key(
      parts, all.size(), [](const Participation& p) { return p.stream; },
      [](const Participation& p) { return p.member.loc; },
      [](const Participation& p) { return p.enter; });

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
      const Participation& head = *members.front();
      CollectiveInstance inst;
      inst.comm = comm;
      inst.op = head.op;
      inst.family = collective_family(head.op, head.role);
      inst.root = head.root;
      inst.nonblocking = head.nonblocking;
      inst.first_member = static_cast<std::uint32_t>(m.members.size());
      inst.member_count = static_cast<std::uint32_t>(members.size());
      inst.complete = members.size() == comm_size;
      bool mismatched = false, moves_data = false;
      for (const Participation* p : members) {
        mismatched |=
            p->op != inst.op || p->root != inst.root || p->nonblocking != inst.nonblocking;
        moves_data |= p->moves_data;
        m.members.push_back(p->member);
        m.starts.push_back(p->start);
      }
      counts.incomplete_collectives += !inst.complete;
      counts.mismatched_collectives += mismatched;
      counts.clock_violations += count_violations(trace, inst, moves_data, members);
      m.collectives.push_back(inst);
    }
    first = last;
  }
}

}  // namespace collwrap
