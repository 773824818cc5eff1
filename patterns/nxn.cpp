// N×N collective wait states: wait_at_nxn and nxn_completion (Scalasca), for the collectives
// in which every member needs data from every other (CollFamily::NxN) and, at their
// completing wait, their nonblocking forms.
#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// wait_at_nxn
//   idle_i = min(max_j Enter_j, Exit_i) − Enter_i      (Enter of the posting call for MPI_I…)
void find_wait_at_nxn(const RuleContext& context, InstanceSink& sink) {
  report_wait_for_last_member(context, CollFamily::NxN, kWaitAtNxN, sink);
}

// nxn_completion
//   idle_i = Exit_i − max(Enter_i, min_j Exit_j)
void find_nxn_completion(const RuleContext& context, InstanceSink& sink) {
  report_completion(context, CollFamily::NxN, kNxNCompletion, sink);
}

}  // namespace

const Pattern kWaitAtNxN{
    .id = "wait_at_nxn",
    .description =
        "A rank waited in an all-to-all collective (Allreduce, Allgather, Alltoall, "
        "Reduce_scatter) "
        "for the last rank to join.",
    .formula = "min(max_j Enter_j, Exit_i) − Enter_i",
    .peer_role = "last rank to join",
    .related_role = "Nonblocking collective started by",
    .recommendation =
        "Balance the work before the collective across ranks, or start it with its nonblocking "
        "form "
        "(MPI_Iallreduce …) and do independent work before MPI_Wait.",
    .find = find_wait_at_nxn,
    .reach = RuleReach::Partners,
};

const Pattern kNxNCompletion{
    .id = "nxn_completion",
    .description =
        "A rank stayed in an all-to-all collective after the first rank had already left it.",
    .formula = "Exit_i − max(Enter_i, min_j Exit_j)",
    .peer_role = "first rank to leave",
    .related_role = "Nonblocking collective started by",
    .recommendation =
        "Look for system noise or oversubscription on this rank's node, and check the MPI "
        "library's "
        "algorithm for this collective and message size.",
    .find = find_nxn_completion,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
