// Window creation and destruction (Scalasca's RMA patterns): MPI_Win_create, MPI_Win_allocate,
// MPI_Win_allocate_shared, MPI_Win_create_dynamic and MPI_Win_free are collective over the
// window's communicator, and a process in them waits for the last one to arrive.
#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// rma_wait_at_create
//   idle_i = min(max_j Enter_j, Exit_i) − Enter_i
void find_rma_wait_at_create(const RuleContext& context, InstanceSink& sink) {
  report_wait_for_last_member(context, CollFamily::WindowCreate, kRmaWaitAtCreate, sink);
}

// rma_wait_at_free
//   idle_i = min(max_j Enter_j, Exit_i) − Enter_i
void find_rma_wait_at_free(const RuleContext& context, InstanceSink& sink) {
  report_wait_for_last_member(context, CollFamily::WindowFree, kRmaWaitAtFree, sink);
}

}  // namespace

const Pattern kRmaWaitAtCreate{
    .id = "rma_wait_at_create",
    .description =
        "A process waited in a window creation (MPI_Win_create, MPI_Win_allocate, …) for the "
        "last process of the communicator to enter.",
    .formula = "min(max_j Enter_j, Exit_i) − Enter_i",
    .peer_role = "last process to enter",
    .recommendation =
        "Create windows once, outside the iterations, or balance the work before the creation.",
    .find = find_rma_wait_at_create,
    .reach = RuleReach::Partners,
};

const Pattern kRmaWaitAtFree{
    .id = "rma_wait_at_free",
    .description = "A process waited in MPI_Win_free for the last process of the window to enter.",
    .formula = "min(max_j Enter_j, Exit_i) − Enter_i",
    .peer_role = "last process to enter",
    .recommendation =
        "Reuse windows instead of freeing and creating them repeatedly, or balance the work "
        "before MPI_Win_free.",
    .find = find_rma_wait_at_free,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
