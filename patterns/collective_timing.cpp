#include "collective_timing.h"

#include <algorithm>

namespace collwrap {
namespace {

// Fills `out` with the members of a complete instance; false when one's calls are missing.
bool collect_members(const Trace& trace, const Matching& matching,
                     const CollectiveInstance& instance, std::vector<CollectiveMember>& out) {
  out.clear();
  for (std::uint32_t i = 0; i < instance.member_count; ++i) {
    const OpRef member = matching.members[instance.first_member + i];
    const CallView call = call_holding(trace, member);
    if (!call.valid()) return false;
    const Peer self = peer_at(trace, member.loc);
    CollectiveMember m{member.loc,  call.call,  kNone,      self.rank,
                       self.thread, call.enter, call.enter, call.leave};
    if (instance.nonblocking) {
      const CallView post = call_holding(trace, matching.starts[instance.first_member + i]);
      if (!post.valid()) return false;
      m.post_call = post.call;
      m.joined = post.enter;
    }
    out.push_back(m);
  }
  return !out.empty();
}

}  // namespace

void for_each_collective(const RuleContext& context, CollFamily family,
                         const std::function<void(const CollectiveInstance&,
                                                  std::span<const CollectiveMember>)>& visit) {
  std::vector<CollectiveMember> members;
  for (const CollectiveInstance& instance : context.matching.collectives) {
    if (!instance.complete || instance.family != family) continue;
    if (collect_members(context.trace, context.matching, instance, members))
      visit(instance, members);
  }
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

void report_wait_for_last_member(const RuleContext& context, CollFamily family,
                                 const Pattern& pattern, InstanceSink& sink) {
  for_each_collective(
      context, family, [&](const CollectiveInstance&, std::span<const CollectiveMember> members) {
        const CollectiveMember* last = last_to_join(members);
        for (const CollectiveMember& m : members)
          report_member(pattern, m, idle_until(last->joined, m.begin, m.end), last->peer(), sink);
      });
}

void report_completion(const RuleContext& context, CollFamily family, const Pattern& pattern,
                       InstanceSink& sink) {
  for_each_collective(
      context, family, [&](const CollectiveInstance&, std::span<const CollectiveMember> members) {
        const CollectiveMember& first = *std::min_element(
            members.begin(), members.end(),
            [](const CollectiveMember& a, const CollectiveMember& b) { return a.end < b.end; });
        for (const CollectiveMember& m : members)
          report_member(pattern, m, m.end - std::max(m.begin, first.end), first.peer(), sink);
      });
}

}  // namespace collwrap
