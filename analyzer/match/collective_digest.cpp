#include "collective_digest.h"

#include <algorithm>

#include "collective_dependency.h"
#include "communicator_ranks.h"
#include "matching.h"

namespace collwrap {
namespace {

// Whether `a` goes before `b` as the extreme a rule picks: a larger (`latest`) or smaller time,
// and of equal times the member first in the communicator.
bool before(const DigestMember& a, TimeNs ta, const DigestMember& b, TimeNs tb, bool latest) {
  if (!b.present()) return a.present();
  if (!a.present()) return false;
  if (ta != tb) return latest ? ta > tb : ta < tb;
  return a.position < b.position;
}

void take_latest_joiner(DigestMember& into, const DigestMember& m) {
  if (before(m, m.joined, into, into.joined, true)) into = m;
}
void take_first_to_leave(DigestMember& into, const DigestMember& m) {
  if (before(m, m.end, into, into.end, false)) into = m;
}
void take_present(DigestMember& into, const DigestMember& m) {
  if (m.present() && (!into.present() || m.position < into.position)) into = m;
}

// Calls visit(c, n) for each instance c of `instances` on a communicator that `digests`
// digests, n being its place among that communicator's instances, which the matcher gives in
// order.
template <class Instances, class Visit>
void for_each_digested(const Trace& trace, Instances& instances, const CollectiveDigests& digests,
                       Visit visit) {
  std::vector<std::uint32_t> seen(trace.comms.size(), 0);  // instances of each so far
  for (auto& c : instances) {
    if (c.comm >= trace.comms.size()) continue;
    const std::uint32_t n = seen[c.comm]++;
    if (digests.digested(c.comm)) visit(c, n);
  }
}

// Asks the cache for what digesting instance c reads of its members' ops, or with `calls`, of
// their calls (through the ops' calls, which the first request brought): an instance's members
// are on as many locations, more streams of columns than the hardware follows ahead, and their
// misses were three quarters of the digesting's time at 10^8 events with two processes.
void prefetch_members(const Trace& trace, const Matching& matching, const CollectiveInstance& c,
                      bool calls) {
  for (std::uint32_t m = c.first_member; m < c.first_member + c.member_count; ++m) {
    const OpRef op = matching.members[m];
    const Location& l = trace.locations[op.loc];
    if (!calls) {
      for (const void* column : {static_cast<const void*>(l.op_call.data() + op.op),
                                 static_cast<const void*>(l.op_kind.data() + op.op),
                                 static_cast<const void*>(l.op_coll.data() + op.op),
                                 static_cast<const void*>(l.op_peer.data() + op.op),
                                 static_cast<const void*>(l.op_bytes_sent.data() + op.op)})
        __builtin_prefetch(column);
      continue;
    }
    if (const std::uint32_t call = l.op_call[op.op]; call != kNone) {
      __builtin_prefetch(l.call_enter.data() + call);
      __builtin_prefetch(l.call_leave.data() + call);
    }
  }
}

}  // namespace

std::uint32_t CollectiveDigests::find(std::uint32_t comm, std::uint32_t instance) const {
  const auto it =
      std::lower_bound(digests.begin(), digests.end(), std::pair(comm, instance),
                       [](const CollectiveDigest& d, std::pair<std::uint32_t, std::uint32_t> key) {
                         return std::pair(d.comm, d.instance) < key;
                       });
  if (it == digests.end() || it->comm != comm || it->instance != instance) return kNone;
  return static_cast<std::uint32_t>(it - digests.begin());
}

std::vector<std::uint8_t> digestible_communicators(const Trace& trace, const LocationRange& at) {
  std::vector<std::uint8_t> state(trace.comms.size(), kNoInstance);
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    if (!at.contains(loc)) continue;
    const Location& l = trace.locations[loc];
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      if (kind != OpKind::CollectiveEnd && kind != OpKind::NbcComplete) continue;
      const std::uint32_t comm = l.op_comm[op], call = l.op_call[op];
      if (comm >= state.size()) continue;
      // Of a rank whose threads take turns in a communicator's collectives, the n-th instance
      // is the n-th of all its threads' calls, by time: a process holding one of the threads
      // would number them otherwise. Only the main thread's are digested.
      bool digestible = kind == OpKind::CollectiveEnd && call != kNone && l.thread == 0;
      if (digestible) {
        const CollFamily family =
            collective_family(l.op_coll[op], trace.regions[l.call_region[call]].role);
        // A member joins at its Enter: not at an earlier upc_notify (split_phase_wait), nor as
        // its UPC sync modes say.
        digestible = (family == CollFamily::Barrier || family == CollFamily::NxN ||
                      family == CollFamily::OneToN || family == CollFamily::NToOne) &&
                     upc_sync_of(l, op) == 0 && !split_phase_wait(trace, l, call);
      }
      if (!digestible)
        state[comm] = kNotDigested;
      else if (state[comm] == kNoInstance)
        state[comm] = kDigested;
    }
  }
  return state;
}

CollectiveDigests partial_digests(const Trace& trace, const Matching& matching,
                                  const std::vector<std::uint8_t>& digested_comm) {
  CollectiveDigests out;
  out.digested_comm = digested_comm;
  CommunicatorRanks positions(trace);
  for_each_digested(
      trace, matching.collectives, out, [&](const CollectiveInstance& c, std::uint32_t instance) {
        // Members' ops four instances ahead, their calls two ahead.
        const auto index = static_cast<std::size_t>(&c - matching.collectives.data());
        const std::vector<CollectiveInstance>& all = matching.collectives;
        if (index + 4 < all.size()) prefetch_members(trace, matching, all[index + 4], false);
        if (index + 2 < all.size()) prefetch_members(trace, matching, all[index + 2], true);
        // The members come in rank-in-communicator order: the first is the instance's head.
        const std::vector<std::int32_t>& table = positions.ranks(c.comm);
        CollectiveDigest d;
        d.comm = c.comm;
        d.instance = instance;
        d.members = c.member_count;
        d.op = c.op;
        d.family = c.family;
        d.root = c.root;
        for (std::uint32_t i = 0; i < c.member_count; ++i) {
          const OpRef op = matching.members[c.first_member + i];
          const Location& l = trace.locations[op.loc];
          const std::uint32_t call = l.op_call[op.op];
          const DigestMember m{static_cast<std::uint32_t>(positions.of(table, l.rank)),
                               op.loc,
                               l.rank,
                               l.thread,
                               l.call_enter[call],
                               l.call_leave[call],
                               call};
          d.mismatched |= l.op_coll[op.op] != d.op || l.op_peer[op.op] != d.root;
          d.moves_data |= l.bytes_sent(op.op) > 0 || l.bytes_received(op.op) > 0;
          if (i == 0) d.first = m;
          take_latest_joiner(d.last_joiner, m);
          take_first_to_leave(d.first_to_leave, m);
          if (l.rank == c.root) d.root_member = m;
        }
        out.digests.push_back(d);
      });
  // The matcher gives the instances communicator by communicator, each's in order: the
  // digests are in (comm, instance) order already.
  return out;
}

void apply_digests(const Trace& trace, Matching& matching, const CollectiveDigests& digests,
                   const LocationRange& counted) {
  matching.digests = &digests;
  MatchCounts& counts = matching.counts;
  for_each_digested(
      trace, matching.collectives, digests, [&](CollectiveInstance& c, std::uint32_t instance) {
        const std::uint32_t index = digests.find(c.comm, instance);
        if (index == kNone) return;
        const CollectiveDigest& d = digests.digests[index];
        c.op = d.op;
        c.family = d.family;
        c.root = d.root;
        c.complete = d.members == trace.comms[c.comm].world_ranks.size();
        c.digest = index;
        if (counted.contains(d.first.loc)) {
          counts.incomplete_collectives += !c.complete;
          counts.mismatched_collectives += d.mismatched;
        }
        // for_each_collective_dependency, member by member.
        const CollFamily family = clock_dependency_family(d.family, d.moves_data, 0);
        for (std::uint32_t i = 0; i < c.member_count; ++i) {
          const OpRef m = matching.members[c.first_member + i];
          if (!counted.contains(m.loc)) continue;
          const Location& l = trace.locations[m.loc];
          const TimeNs exit = l.call_leave[l.op_call[m.op]];
          if (family == CollFamily::Barrier || family == CollFamily::NxN)
            counts.clock_violations += exit < d.last_joiner.joined;
          else if (family == CollFamily::OneToN && d.root_member.present() && l.rank != d.root)
            counts.clock_violations += exit < d.root_member.joined;
          else if (family == CollFamily::NToOne && l.rank == d.root)
            counts.clock_violations += exit < d.last_joiner.joined;
        }
      });
}

void merge_digest(CollectiveDigest& into, const CollectiveDigest& part) {
  if (part.members == 0) return;
  if (into.members == 0) {
    into = part;
    return;
  }
  into.mismatched |= part.mismatched || part.op != into.op || part.root != into.root;
  into.moves_data |= part.moves_data;
  into.members += part.members;
  if (part.first.position < into.first.position) {
    into.first = part.first;
    into.op = part.op;
    into.family = part.family;
    into.root = part.root;
  }
  take_latest_joiner(into.last_joiner, part.last_joiner);
  take_first_to_leave(into.first_to_leave, part.first_to_leave);
  take_present(into.root_member, part.root_member);
}

CollectiveDigests merge_digests(const CollectiveDigests& a, const CollectiveDigests& b) {
  CollectiveDigests out;
  out.digested_comm.assign(std::max(a.digested_comm.size(), b.digested_comm.size()), kNoInstance);
  for (const CollectiveDigests* p : {&a, &b})
    for (std::size_t c = 0; c < p->digested_comm.size(); ++c) {
      std::uint8_t& state = out.digested_comm[c];
      if (p->digested_comm[c] == kNotDigested)
        state = kNotDigested;
      else if (p->digested_comm[c] == kDigested && state == kNoInstance)
        state = kDigested;
    }
  std::size_t room = 0;
  for (const CollectiveDigests* p : {&a, &b})
    for (const CollectiveDigest& d : p->digests) room += out.digested(d.comm);
  out.digests.reserve(room);
  const auto key = [](const CollectiveDigest& d) { return std::pair(d.comm, d.instance); };
  auto i = a.digests.begin(), j = b.digests.begin();
  const auto take = [&](const CollectiveDigest& d) {
    if (!out.digested(d.comm)) return;
    if (!out.digests.empty() && key(out.digests.back()) == key(d))
      merge_digest(out.digests.back(), d);
    else
      out.digests.push_back(d);
  };
  while (i != a.digests.end() || j != b.digests.end()) {
    if (j == b.digests.end() || (i != a.digests.end() && key(*i) <= key(*j)))
      take(*i++);
    else
      take(*j++);
  }
  return out;
}

}  // namespace collwrap
