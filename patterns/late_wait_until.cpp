// late_wait_until: a wait for a change of local memory (shmem_wait_until, upc_wait on a strict
// variable, MPI_Win_wait…) idled until another process's put or atomic released it (Akopyan and
// Andreev, ISP RAS, synchronization patterns of UPC programs: waiting for an atomic operation).
#include <algorithm>

#include "catalog.h"
#include "trace_access.h"

namespace collwrap {
namespace {

// A put or atomic that changed a process's memory: when it started and who issued it.
struct Release {
  TimeNs time;
  Peer origin;  // the thread that put
};

// By target world rank, in time order.
std::vector<std::vector<Release>> releases_by_target(const Trace& trace) {
  std::vector<std::vector<Release>> releases(
      static_cast<std::size_t>(std::max(0, trace.world_size)));
  for (const Location& l : trace.locations) {
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      if (l.op_kind[op] != OpKind::RmaPut && l.op_kind[op] != OpKind::RmaAtomic) continue;
      const std::int32_t target = l.op_peer[op];
      if (target < 0 || target >= trace.world_size || target == l.rank) continue;
      releases[static_cast<std::size_t>(target)].push_back({l.op_time(op), {l.rank, l.thread}});
    }
  }
  // Stable, so that of puts at the same time the last is the same on a divided trace, which
  // holds some of the locations as ghosts, as on the whole.
  for (auto& list : releases)
    std::stable_sort(list.begin(), list.end(),
                     [](const Release& a, const Release& b) { return a.time < b.time; });
  return releases;
}

// late_wait_until
//   idle = min(Start(release), End(wait)) − Start(wait)
// where the release is the last put or atomic of another process to the waiting process that
// started before the wait ended: the one that let it go. The waited-for address is not
// recorded, so an unrelated put in between would be taken for the release.
void find_late_wait_until(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  const auto releases = releases_by_target(trace);
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    if (l.rank < 0 || l.rank >= trace.world_size) continue;
    const auto& list = releases[static_cast<std::size_t>(l.rank)];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      const auto ops = ops_of_call(trace, loc, call);
      if (std::none_of(ops.begin(), ops.end(),
                       [&](std::uint32_t op) { return l.op_kind[op] == OpKind::RmaWaitChange; }))
        continue;
      const CallView wait = call_view(trace, loc, call);
      const auto after = std::upper_bound(list.begin(), list.end(), wait.leave,
                                          [](TimeNs t, const Release& r) { return t < r.time; });
      if (after == list.begin()) continue;
      const Release& release = *(after - 1);
      const TimeNs idle = idle_until(release.time, wait);
      if (idle > 0) sink.add({&kLateWaitUntil, loc, call, idle, {&release.origin, 1}, {}});
    }
  }
}

}  // namespace

const Pattern kLateWaitUntil{
    .id = "late_wait_until",
    .description =
        "A wait for local memory to change (shmem_wait_until) idled until another process's put "
        "or atomic operation released it.",
    .formula = "min(Start(releasing put or atomic), End(wait)) − Start(wait)",
    .peer_role = "releasing process",
    .recommendation =
        "Let the releasing process signal earlier (issue the put or atomic before its other "
        "work), or give the waiting process independent work before the wait.",
    .find = find_late_wait_until,
    .needs = {OpKind::RmaWaitChange},
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
