// upc_wait_inside_collective: waiting inside a UPC relocalization collective after its data
// movement had finished (Akopyan and Andreev, ISP RAS, on MPI and UPC patterns: collective
// relocalization operations, waiting inside a collective). With UPC_OUT_ALLSYNC no thread leaves
// before every thread has finished reading and writing the collective's data, so once the first
// thread left, the others' remaining time is a wait for the runtime's exit synchronization to
// release them. Many-to-many collectives (upc_all_exchange, permute, gather_all) are left to
// nxn_completion, which measures the same for every all-to-all collective.
#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

// upc_wait_inside_collective (UPC_OUT_ALLSYNC, one-to-many, many-to-one and prefix)
//   idle_i = Exit_i − max(Enter_i, min_j Exit_j),   peer = the first to leave
void find_upc_wait_inside_collective(const RuleContext& context, InstanceSink& sink) {
  for_each_upc_collective(context, [&](const CollectiveInstance& instance,
                                       std::span<const CollectiveMember> members) {
    if (instance.family != CollFamily::NxN && upc_exit_sync(members[0].upc_sync) == UpcSync::All)
      report_after_first_exit(kUpcWaitInsideCollective, members, sink);
  });
}

}  // namespace

const Pattern kUpcWaitInsideCollective{
    .id = "upc_wait_inside_collective",
    .description =
        "A UPC thread stayed in a upc_all_* collective with UPC_OUT_ALLSYNC after the first "
        "thread had left it, when every thread's data movement had finished.",
    .formula = "Exit_i − max(Enter_i, min_j Exit_j)",
    .peer_role = "first thread to leave",
    .recommendation =
        "Look for system noise or oversubscription on this thread's node, and for a slow exit "
        "synchronization in the UPC runtime; use UPC_OUT_MYSYNC or UPC_OUT_NOSYNC when the "
        "threads do not read the collective's results right away.",
    .find = find_upc_wait_inside_collective,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
