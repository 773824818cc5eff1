// Barrier wait states: wait_at_barrier and barrier_completion (Scalasca), for MPI_Barrier
// and, at its completing wait, MPI_Ibarrier; UPC's split-phase barrier (upc_notify … upc_wait)
// like MPI_Ibarrier, its upc_notify as the posting call (Akopyan and Andreev, ISP RAS, on MPI
// and UPC patterns: split-phase barrier wait).
#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// wait_at_barrier
//   idle_i = min(max_j Enter_j, Exit_i) − Enter_i      (Enter of the posting call for Ibarrier,
//                                                      of upc_notify for upc_wait)
void find_wait_at_barrier(const RuleContext& context, InstanceSink& sink) {
  report_wait_for_last_member(context, CollFamily::Barrier, kWaitAtBarrier, sink);
}

// barrier_completion
//   idle_i = Exit_i − max(Enter_i, min_j Exit_j)
void find_barrier_completion(const RuleContext& context, InstanceSink& sink) {
  report_completion(context, CollFamily::Barrier, kBarrierCompletion, sink);
}

}  // namespace

const Pattern kWaitAtBarrier{
    .id = "wait_at_barrier",
    .description = "A rank waited in a barrier for the last rank to arrive.",
    .formula = "min(max_j Enter_j, Exit_i) − Enter_i",
    .peer_role = "last rank to arrive",
    .related_role = "Nonblocking barrier started by",
    .recommendation =
        "Balance the work before the barrier across ranks, or remove the barrier if it is not "
        "needed for correctness (most are not: the data exchanges synchronize by themselves).",
    .find = find_wait_at_barrier,
    .reach = RuleReach::Partners,
};

const Pattern kBarrierCompletion{
    .id = "barrier_completion",
    .description = "A rank stayed in a barrier after the first rank had already left it.",
    .formula = "Exit_i − max(Enter_i, min_j Exit_j)",
    .peer_role = "first rank to leave",
    .related_role = "Nonblocking barrier started by",
    .recommendation =
        "Look for system noise or oversubscription on this rank's node (other processes, "
        "interrupts) "
        "and check the MPI library's barrier algorithm; remove the barrier if it is not needed.",
    .find = find_barrier_completion,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
