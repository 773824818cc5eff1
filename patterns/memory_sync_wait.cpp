// memory_sync_wait: time in a fence or quiet (shmem_quiet, shmem_fence, upc_fence) waiting for
// this process's outstanding one-sided operations to complete (Akopyan and Andreev, ISP RAS,
// synchronization patterns of UPC programs: wait in upc_fence).
#include <algorithm>

#include "catalog.h"
#include "trace_access.h"

namespace collwrap {
namespace {

// memory_sync_wait
//   idle = End(fence or quiet) − Start(fence or quiet)
// peers: the targets of the puts, gets and atomics issued since the previous fence or quiet.
void find_memory_sync_wait(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  std::vector<Peer> outstanding;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    outstanding.clear();
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      bool sync = false;
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        const OpKind kind = l.op_kind[op];
        if (kind == OpKind::RmaSync) sync = true;
        const bool transfer =
            kind == OpKind::RmaPut || kind == OpKind::RmaGet || kind == OpKind::RmaAtomic;
        if (transfer && l.op_peer[op] != kNoWorldRank &&
            std::find(outstanding.begin(), outstanding.end(), Peer{l.op_peer[op]}) ==
                outstanding.end())
          outstanding.push_back({l.op_peer[op]});  // a passive target: no thread of it
      }
      if (!sync) continue;
      std::sort(outstanding.begin(), outstanding.end());
      const TimeNs idle = l.call_leave[call] - l.call_enter[call];
      if (idle > 0) sink.add({&kMemorySyncWait, loc, call, idle, outstanding, {}});
      outstanding.clear();
    }
  }
}

}  // namespace

const Pattern kMemorySyncWait{
    .id = "memory_sync_wait",
    .description =
        "A fence or quiet (shmem_quiet, shmem_fence) waited for this process's outstanding "
        "one-sided operations to complete.",
    .formula = "End(fence or quiet) − Start(fence or quiet)",
    .peer_role = "targets of the outstanding operations",
    .recommendation =
        "Quiet less often (once after a batch of puts rather than after each), overlap the "
        "outstanding operations with independent work before the quiet, or use shmem_fence "
        "where only ordering is needed.",
    .find = find_memory_sync_wait,
    .needs = {OpKind::RmaSync},
    .reach = RuleReach::OwnLocation,
};

}  // namespace collwrap
