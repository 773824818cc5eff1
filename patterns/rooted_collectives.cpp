// Wait states of collectives with a direction: one-to-all (late_broadcast), all-to-one
// (early_reduce) and prefix (early_scan), blocking and, at their completing wait, nonblocking.
#include <algorithm>
#include <unordered_map>

#include "catalog.h"
#include "collective_timing.h"
#include "communicator_ranks.h"

namespace collwrap {
namespace {

// late_broadcast
//   idle_i = min(Enter_root, Exit_i) − Enter_i     for every non-root i
void find_late_broadcast(const RuleContext& context, InstanceSink& sink) {
  for_each_collective(
      context, CollFamily::OneToN,
      [&](const CollectiveInstance& instance, std::span<const CollectiveMember> members) {
        if (waits_for_sources_on_entry(members))
          report_wait_for_root(kLateBroadcast, instance, members, sink);
      });
}

// early_reduce
//   idle_root = min(max_{i≠root} Enter_i, Exit_root) − Enter_root
void find_early_reduce(const RuleContext& context, InstanceSink& sink) {
  for_each_collective(
      context, CollFamily::NToOne,
      [&](const CollectiveInstance& instance, std::span<const CollectiveMember> members) {
        if (!waits_for_sources_on_entry(members)) return;
        const CollectiveMember* root = root_member(instance, members);
        const CollectiveMember* last = last_to_join(members, root);
        if (root == nullptr || last == nullptr) return;
        report_member(kEarlyReduce, *root, idle_until(last->joined, root->begin, root->end),
                      last->peer(), sink);
      });
}

// early_scan
//   idle_i = min(max_{j<i} Enter_j, Exit_i) − Enter_i     (i, j: ranks in the communicator)
void find_early_scan(const RuleContext& context, InstanceSink& sink) {
  CommunicatorRanks comm_ranks(context.trace);
  std::vector<std::pair<std::int32_t, const CollectiveMember*>> by_rank;
  for_each_collective(
      context, CollFamily::Prefix,
      [&](const CollectiveInstance& instance, std::span<const CollectiveMember> members) {
        if (!waits_for_sources_on_entry(members)) return;
        by_rank.clear();
        for (const CollectiveMember& m : members)
          by_rank.emplace_back(comm_ranks.of(instance.comm, m.world_rank), &m);
        std::sort(by_rank.begin(), by_rank.end());
        const CollectiveMember* latest_lower = nullptr;
        for (const auto& [rank, m] : by_rank) {
          if (latest_lower != nullptr)
            report_member(kEarlyScan, *m, idle_until(latest_lower->joined, m->begin, m->end),
                          latest_lower->peer(), sink);
          if (latest_lower == nullptr || m->joined > latest_lower->joined) latest_lower = m;
        }
      });
}

}  // namespace

const Pattern kLateBroadcast{
    .id = "late_broadcast",
    .description =
        "A non-root rank waited in a one-to-all collective (Bcast, Scatter) for the root to enter.",
    .formula = "min(Enter_root, Exit_i) − Enter_i",
    .peer_role = "root",
    .related_role = "Nonblocking collective started by",
    .recommendation =
        "Balance the work before the collective: the root arrives last. Move work off the root, or "
        "let the others do independent work first (MPI_Ibcast, then MPI_Wait later).",
    .find = find_late_broadcast,
    .reach = RuleReach::Partners,
};

const Pattern kEarlyReduce{
    .id = "early_reduce",
    .description =
        "The root of an all-to-one collective (Reduce, Gather) waited for the last sender to "
        "enter.",
    .formula = "min(max_{i≠root} Enter_i, Exit_root) − Enter_root",
    .peer_role = "last sender",
    .related_role = "Nonblocking collective started by",
    .recommendation =
        "Balance the work of the senders, or give the root independent work before the collective "
        "(MPI_Ireduce/MPI_Igather, then MPI_Wait later).",
    .find = find_early_reduce,
    .reach = RuleReach::Partners,
};

const Pattern kEarlyScan{
    .id = "early_scan",
    .description = "A rank waited in a prefix reduction (Scan, Exscan) for a lower rank to enter.",
    .formula = "min(max_{j<i} Enter_j, Exit_i) − Enter_i",
    .peer_role = "lower rank that entered last",
    .related_role = "Nonblocking collective started by",
    .recommendation = "Balance the work before the scan across ranks; the lower ranks arrive late.",
    .find = find_early_scan,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
