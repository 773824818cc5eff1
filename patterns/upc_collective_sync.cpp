// The synchronization modes of UPC's relocalization collectives (upc_all_broadcast, scatter,
// gather, gather_all, exchange, permute, reduce, prefix_reduce): upc_sync_on_entry and
// upc_sync_on_exit (Akopyan and Andreev, ISP RAS, on MPI and UPC patterns: collective
// relocalization operations, synchronization on entry and on exit). The modes come from the
// UpcSyncFlags attribute of the collective's RmaCollectiveEnd (UpcSync). With UPC_IN_MYSYNC
// the family's own rules (late_broadcast, early_reduce, early_scan, wait_at_nxn) report the
// entry wait; with UPC_IN_NOSYNC nobody waits on entry.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "catalog.h"
#include "collective_dependency.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// When the entry mode let each member start moving data: its own Enter (UPC_IN_NOSYNC), the
// latest Enter among the members whose data it needs (UPC_IN_MYSYNC, the family's dependency),
// or the last member's Enter (UPC_IN_ALLSYNC).
std::vector<TimeNs> entry_released(const CollectiveInstance& instance,
                                   std::span<const CollectiveMember> members) {
  std::vector<TimeNs> ready(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) ready[i] = members[i].joined;
  const UpcSync entry = upc_entry_sync(members[0].upc_sync);
  if (entry == UpcSync::No) return ready;
  const CollFamily family = entry == UpcSync::All ? CollFamily::Barrier : instance.family;
  std::uint32_t root = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t i = 0; i < members.size(); ++i)
    if (members[i].world_rank == instance.root) root = static_cast<std::uint32_t>(i);
  for_each_collective_dependency(
      family, static_cast<std::uint32_t>(members.size()), root, nullptr,
      [&](std::uint32_t i) { return members[i].joined; },
      [&](std::uint32_t i, TimeNs entered) { ready[i] = std::max(ready[i], entered); });
  return ready;
}

// Whether the exit mode makes a member wait for the others: UPC_OUT_ALLSYNC, and
// UPC_OUT_MYSYNC in a many-to-many collective, where every thread's data is read or written
// by every other thread.
bool exit_synchronizes(const CollectiveInstance& instance, std::int32_t flags) {
  const UpcSync exit = upc_exit_sync(flags);
  return exit == UpcSync::All || (exit == UpcSync::My && instance.family == CollFamily::NxN);
}

// upc_sync_on_entry (UPC_IN_ALLSYNC)
//   idle_i = min(max_j Enter_j, Exit_i) − Enter_i,   peer = the last to enter
void find_upc_sync_on_entry(const RuleContext& context, InstanceSink& sink) {
  for_each_upc_collective(
      context, [&](const CollectiveInstance&, std::span<const CollectiveMember> members) {
        if (upc_entry_sync(members[0].upc_sync) == UpcSync::All)
          report_wait_for_last(kUpcSyncOnEntry, members, sink);
      });
}

// upc_sync_on_exit (UPC_OUT_ALLSYNC; UPC_OUT_MYSYNC in a many-to-many collective)
//   idle_i = min(max_j Enter_j, Exit_i) − max(Enter_i, Ready_i),   peer = the last to enter
// Ready_i: when the entry mode let member i start (entry_released); the wait up to it belongs
// to the entry, so with UPC_IN_ALLSYNC nothing is left to the exit.
void find_upc_sync_on_exit(const RuleContext& context, InstanceSink& sink) {
  for_each_upc_collective(context, [&](const CollectiveInstance& instance,
                                       std::span<const CollectiveMember> members) {
    if (!exit_synchronizes(instance, members[0].upc_sync)) return;
    const CollectiveMember* last = last_to_join(members);
    const std::vector<TimeNs> ready = entry_released(instance, members);
    for (std::size_t i = 0; i < members.size(); ++i) {
      const CollectiveMember& m = members[i];
      report_member(kUpcSyncOnExit, m, idle_until(last->joined, std::max(m.begin, ready[i]), m.end),
                    last->peer(), sink);
    }
  });
}

}  // namespace

const Pattern kUpcSyncOnEntry{
    .id = "upc_sync_on_entry",
    .description =
        "A UPC thread waited on entry to a upc_all_* collective with UPC_IN_ALLSYNC for the last "
        "thread to enter.",
    .formula = "min(max_j Enter_j, Exit_i) − Enter_i",
    .peer_role = "last thread to enter",
    .recommendation =
        "Balance the work before the collective, or relax UPC_IN_ALLSYNC: with UPC_IN_MYSYNC a "
        "thread waits only for the threads whose data it moves, with UPC_IN_NOSYNC for none "
        "(when a preceding barrier or collective already made the data ready).",
    .find = find_upc_sync_on_entry,
    .reach = RuleReach::Partners,
};

const Pattern kUpcSyncOnExit{
    .id = "upc_sync_on_exit",
    .description =
        "A UPC thread waited at the exit of a upc_all_* collective with UPC_OUT_ALLSYNC (or "
        "UPC_OUT_MYSYNC in upc_all_exchange, permute or gather_all) for the last thread to "
        "enter, after its entry mode had let it start.",
    .formula = "min(max_j Enter_j, Exit_i) − max(Enter_i, Ready_i)",
    .peer_role = "last thread to enter",
    .recommendation =
        "Balance the work before the collective, or relax UPC_OUT_ALLSYNC: UPC_OUT_MYSYNC or "
        "UPC_OUT_NOSYNC when the thread does not touch the collective's data right afterwards "
        "(a later barrier or collective synchronizes anyway).",
    .find = find_upc_sync_on_exit,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
