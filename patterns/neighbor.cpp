// Neighborhood collective wait states: wait_at_neighbor. In MPI_Neighbor_* and
// MPI_Ineighbor_* on a Cartesian, graph or distributed-graph communicator a rank receives only
// from its in-neighbors, so it can wait only for them (the topology comes from the archive's
// definitions). No completion pattern applies: ranks leave as their own neighbors allow.
#include <algorithm>
#include <vector>

#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// wait_at_neighbor
//   idle_i = min(max_{j ∈ in(i)} Enter_j, Exit_i) − Enter_i   (Enter of the posting call for
//   MPI_Ineighbor_…), peers = the in-neighbors that joined after Enter_i
void find_wait_at_neighbor(const RuleContext& context, InstanceSink& sink) {
  std::vector<const CollectiveMember*> late;
  std::vector<Peer> peers;
  for_each_collective(
      context, CollFamily::Neighbor,
      [&](const CollectiveInstance& instance, std::span<const CollectiveMember> members) {
        // Complete instances list their members in rank-in-communicator order.
        const NeighborLists& in_neighbors = context.trace.comms[instance.comm].in_neighbors;
        if (in_neighbors.size() != members.size()) return;
        for (std::size_t i = 0; i < members.size(); ++i) {
          const CollectiveMember& m = members[i];
          late.clear();
          for (const std::uint32_t j : in_neighbors[i])
            if (j < members.size() && members[j].joined > m.begin) late.push_back(&members[j]);
          if (late.empty()) continue;
          std::sort(late.begin(), late.end(), [](const auto* a, const auto* b) {
            return a->joined != b->joined ? a->joined > b->joined : a->world_rank < b->world_rank;
          });
          late.erase(std::unique(late.begin(), late.end()), late.end());
          const TimeNs idle = idle_until(late.front()->joined, m.begin, m.end);
          if (idle <= 0) continue;
          peers.clear();
          for (const CollectiveMember* p : late) peers.push_back(p->peer());
          sink.add({&kWaitAtNeighbor, m.loc, m.call, idle, peers, {.related_call = m.post_call}});
        }
      });
}

}  // namespace

const Pattern kWaitAtNeighbor{
    .id = "wait_at_neighbor",
    .description =
        "A rank waited in a neighborhood collective (MPI_Neighbor_allgather, "
        "MPI_Neighbor_alltoall, …) for the last of its in-neighbors to join.",
    .formula = "min(max_{j ∈ in-neighbors(i)} Enter_j, Exit_i) − Enter_i",
    .peer_role = "in-neighbors that joined after it",
    .related_role = "Nonblocking collective started by",
    .recommendation =
        "Balance the work before the exchange between this rank and the neighbors named, or "
        "start it with MPI_Ineighbor_… and do work that needs no halo data before MPI_Wait.",
    .find = find_wait_at_neighbor,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
