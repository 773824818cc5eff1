#include "collective_timing.h"

#include <algorithm>
#include <string_view>

#include "collective_dependency.h"
#include "communicator_ranks.h"

namespace collwrap {
namespace {

bool region_is(const Trace& trace, const Location& l, std::uint32_t call, std::string_view name) {
  return trace.regions[l.call_region[call]].name == name;
}

// The members a digested instance's rules read of the other processes (collective_digest.h),
// added to the members held here in rank-in-communicator order, so that ties go as on the whole
// trace. They have no call here: what is reported of them, the sink leaves to their holder.
void add_digested_members(const CollectiveDigest& digest, CommunicatorRanks& positions,
                          std::vector<CollectiveMember>& out) {
  const std::size_t held = out.size();
  for (const DigestMember* m : {&digest.last_joiner, &digest.first_to_leave, &digest.root_member}) {
    if (!m->present()) continue;
    const auto same = [&](const CollectiveMember& c) { return c.loc == m->loc; };
    if (std::any_of(out.begin(), out.end(), same)) continue;
    out.push_back({m->loc, kNone, kNone, m->rank, m->thread, m->joined, m->joined, m->end, 0});
  }
  if (out.size() == held) return;
  const std::vector<std::int32_t>& table = positions.ranks(digest.comm);  // once per instance
  const auto position = [&](const CollectiveMember& c) {
    return positions.of(table, c.world_rank);
  };
  std::sort(out.begin(), out.end(), [&](const CollectiveMember& a, const CollectiveMember& b) {
    return position(a) < position(b);
  });
}

// Fills `out` with the members of a complete instance; false when one's calls are missing.
bool collect_members(const Trace& trace, const Matching& matching,
                     const CollectiveInstance& instance, CommunicatorRanks& positions,
                     std::vector<CollectiveMember>& out) {
  out.clear();
  for (std::uint32_t i = 0; i < instance.member_count; ++i) {
    const OpRef member = matching.members[instance.first_member + i];
    const CallView call = call_holding(trace, member);
    if (!call.valid()) return false;
    const Peer self = peer_at(trace, member.loc);
    CollectiveMember m{
        member.loc, call.call,   kNone,
        self.rank,  self.thread, call.enter,
        call.enter, call.leave,  upc_sync_of(trace.locations[member.loc], member.op)};
    if (instance.nonblocking) {
      const CallView post = call_holding(trace, matching.starts[instance.first_member + i]);
      if (!post.valid()) return false;
      m.post_call = post.call;
      m.joined = post.enter;
    } else if (instance.family == CollFamily::Barrier) {
      // A split-phase barrier (upc_notify … upc_wait) is like MPI_Ibarrier … MPI_Wait: a
      // thread joins it at its upc_notify, and its upc_wait waits for every thread's.
      const std::uint32_t notify = split_phase_notify(trace, member.loc, call.call);
      if (notify != kNone) {
        m.post_call = notify;
        m.joined = trace.locations[member.loc].call_enter[notify];
      }
    }
    out.push_back(m);
  }
  if (instance.digest != kNone && matching.digests != nullptr)
    add_digested_members(matching.digests->digests[instance.digest], positions, out);
  return !out.empty();
}

// for_each_collective over the instances whose first member `keep` accepts, asked before
// the members are collected.
template <class Keep, class Visit>
void visit_instances(const RuleContext& context, CollFamily family, Keep keep, Visit& visit) {
  std::vector<CollectiveMember> members;
  CommunicatorRanks positions(context.trace);
  for (const CollectiveInstance& instance : context.matching.collectives) {
    if (!instance.complete || instance.family != family || instance.member_count == 0) continue;
    if (!keep(context.matching.members[instance.first_member])) continue;
    if (collect_members(context.trace, context.matching, instance, positions, members))
      visit(instance, members);
  }
}

}  // namespace

std::uint32_t split_phase_notify(const Trace& trace, std::uint32_t loc, std::uint32_t wait) {
  const Location& l = trace.locations[loc];
  if (!split_phase_wait(trace, l, wait)) return kNone;
  for (std::uint32_t call = wait; call-- > 0;) {
    if (region_is(trace, l, call, "upc_notify")) return call;
    if (split_phase_wait(trace, l, call)) return kNone;
  }
  return kNone;
}

void for_each_collective(const RuleContext& context, CollFamily family,
                         const std::function<void(const CollectiveInstance&,
                                                  std::span<const CollectiveMember>)>& visit) {
  visit_instances(
      context, family, [](OpRef) { return true; }, visit);
}

bool waits_for_sources_on_entry(std::span<const CollectiveMember> members) {
  const UpcSync entry =
      members.empty() ? UpcSync::Unspecified : upc_entry_sync(members[0].upc_sync);
  return entry == UpcSync::Unspecified || entry == UpcSync::My;
}

void for_each_upc_collective(const RuleContext& context,
                             const std::function<void(const CollectiveInstance&,
                                                      std::span<const CollectiveMember>)>& visit) {
  // The sync modes are read off the first member's op before the members are collected: most
  // traces have no UPC collective, and most instances are not one.
  const auto upc = [&](OpRef first) {
    return upc_sync_of(context.trace.locations[first.loc], first.op) != 0;
  };
  for (const CollFamily family :
       {CollFamily::OneToN, CollFamily::NToOne, CollFamily::NxN, CollFamily::Prefix})
    visit_instances(context, family, upc, visit);
}

const CollectiveMember* root_member(const CollectiveInstance& instance,
                                    std::span<const CollectiveMember> members) {
  for (const CollectiveMember& m : members)
    if (m.world_rank == instance.root) return &m;
  return nullptr;
}

const CollectiveMember* last_to_join(std::span<const CollectiveMember> members,
                                     const CollectiveMember* except) {
  const CollectiveMember* last = nullptr;
  for (const CollectiveMember& m : members)
    if (&m != except && (last == nullptr || m.joined > last->joined)) last = &m;
  return last;
}

void report_member(const Pattern& pattern, const CollectiveMember& member, TimeNs idle, Peer peer,
                   InstanceSink& sink) {
  if (idle <= 0) return;
  sink.add(
      {&pattern, member.loc, member.call, idle, {&peer, 1}, {.related_call = member.post_call}});
}

void report_wait_for_last(const Pattern& pattern, std::span<const CollectiveMember> members,
                          InstanceSink& sink) {
  const CollectiveMember* last = last_to_join(members);
  if (last == nullptr) return;
  for (const CollectiveMember& m : members)
    report_member(pattern, m, idle_until(last->joined, m.begin, m.end), last->peer(), sink);
}

void report_wait_for_last_member(const RuleContext& context, CollFamily family,
                                 const Pattern& pattern, InstanceSink& sink) {
  for_each_collective(context, family,
                      [&](const CollectiveInstance&, std::span<const CollectiveMember> members) {
                        if (waits_for_sources_on_entry(members))
                          report_wait_for_last(pattern, members, sink);
                      });
}

void report_wait_for_root(const Pattern& pattern, const CollectiveInstance& instance,
                          std::span<const CollectiveMember> members, InstanceSink& sink) {
  const CollectiveMember* root = root_member(instance, members);
  if (root == nullptr) return;
  for (const CollectiveMember& m : members)
    if (&m != root)
      report_member(pattern, m, idle_until(root->joined, m.begin, m.end), root->peer(), sink);
}

void report_after_first_exit(const Pattern& pattern, std::span<const CollectiveMember> members,
                             InstanceSink& sink) {
  if (members.empty()) return;
  const CollectiveMember& first = *std::min_element(
      members.begin(), members.end(),
      [](const CollectiveMember& a, const CollectiveMember& b) { return a.end < b.end; });
  for (const CollectiveMember& m : members)
    report_member(pattern, m, m.end - std::max(m.begin, first.end), first.peer(), sink);
}

void report_completion(const RuleContext& context, CollFamily family, const Pattern& pattern,
                       InstanceSink& sink) {
  for_each_collective(context, family,
                      [&](const CollectiveInstance&, std::span<const CollectiveMember> members) {
                        report_after_first_exit(pattern, members, sink);
                      });
}

}  // namespace collwrap
