// Fence synchronization of MPI windows (Scalasca's RMA patterns, Hermanns et al.): waiting in
// MPI_Win_fence for the last process to arrive, and, once all arrived, for the epoch's remote
// memory accesses to complete.
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// rma_wait_at_fence
//   idle_i = min(max_j Enter_j, Exit_i) − Enter_i
void find_rma_wait_at_fence(const RuleContext& context, InstanceSink& sink) {
  report_wait_for_last_member(context, CollFamily::Fence, kRmaWaitAtFence, sink);
}

// The ranks each fence call exchanged one-sided operations with in the epoch it closes: the
// targets of this location's transfers on the window's communicator since its previous fence
// there. Key: (location, call).
using EpochTargets = std::unordered_map<std::uint64_t, std::vector<std::int32_t>>;
std::uint64_t call_key(std::uint32_t loc, std::uint32_t call) {
  return (std::uint64_t{loc} << 32) | call;
}

EpochTargets epoch_targets(const RuleContext& context) {
  const Trace& trace = context.trace;
  EpochTargets targets;
  for (const CollectiveInstance& instance : context.matching.collectives) {
    if (instance.family != CollFamily::Fence) continue;
    for (std::uint32_t i = 0; i < instance.member_count; ++i) {
      const OpRef member = context.matching.members[instance.first_member + i];
      const CallView fence = call_holding(trace, member);
      if (fence.valid()) targets[call_key(fence.loc, fence.call)];
    }
  }
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    std::unordered_map<std::uint32_t, std::vector<std::int32_t>> open;  // by window comm
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      if (kind == OpKind::RmaPut || kind == OpKind::RmaGet || kind == OpKind::RmaAtomic) {
        if (l.op_peer[op] != kNoWorldRank) open[l.op_comm[op]].push_back(l.op_peer[op]);
      } else if (kind == OpKind::CollectiveEnd && l.op_call[op] != kNone) {
        const auto fence = targets.find(call_key(loc, l.op_call[op]));
        if (fence == targets.end()) continue;
        fence->second = std::move(open[l.op_comm[op]]);
        open[l.op_comm[op]].clear();
      }
    }
  }
  return targets;
}

// rma_early_fence
//   idle_i = Exit_i − max(max_j Enter_j, Enter_i), for a member that issued or was the target
//   of one-sided operations in the epoch the fence closes; peers: those targets and origins.
void find_rma_early_fence(const RuleContext& context, InstanceSink& sink) {
  const EpochTargets targets = epoch_targets(context);
  std::vector<Peer> peers;
  const auto among = [](const std::vector<std::int32_t>& ranks, std::int32_t rank) {
    return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
  };
  for_each_collective(context, CollFamily::Fence,
                      [&](const CollectiveInstance&, std::span<const CollectiveMember> members) {
                        const CollectiveMember* last = last_to_join(members);
                        for (const CollectiveMember& m : members) {
                          // The peers' threads are those that called the fence: the targets take
                          // part in the epoch only through it.
                          const auto& mine = targets.at(call_key(m.loc, m.call));
                          peers.clear();
                          for (const CollectiveMember& other : members)
                            if (other.world_rank != m.world_rank &&
                                (among(mine, other.world_rank) ||
                                 among(targets.at(call_key(other.loc, other.call)), m.world_rank)))
                              peers.push_back(other.peer());
                          std::sort(peers.begin(), peers.end());
                          const TimeNs idle = m.end - std::max(last->joined, m.begin);
                          if (peers.empty() || idle <= 0) continue;
                          sink.add({&kRmaEarlyFence, m.loc, m.call, idle, peers, {}});
                        }
                      });
}

}  // namespace

const Pattern kRmaWaitAtFence{
    .id = "rma_wait_at_fence",
    .description = "A process waited in MPI_Win_fence for the last process of the window to enter.",
    .formula = "min(max_j Enter_j, Exit_i) − Enter_i",
    .peer_role = "last process to enter the fence",
    .recommendation =
        "Balance the work between the fences across the window's processes, or synchronize only "
        "the processes that access each other with MPI_Win_post/start/complete/wait or locks.",
    .find = find_rma_wait_at_fence,
    .reach = RuleReach::Partners,
};

const Pattern kRmaEarlyFence{
    .id = "rma_early_fence",
    .description =
        "After every process had entered MPI_Win_fence, a process stayed in it while the "
        "epoch's one-sided operations to or from it completed.",
    .formula = "Exit_i − max(max_j Enter_j, Enter_i), for a process with operations in the epoch",
    .peer_role = "targets and origins of the epoch's operations",
    .recommendation =
        "Issue the puts and gets earlier in the epoch and do independent work before the fence, "
        "so that they complete while the process computes; fewer, larger transfers also help.",
    .find = find_rma_early_fence,
    .needs = {OpKind::RmaPut, OpKind::RmaGet, OpKind::RmaAtomic},
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
