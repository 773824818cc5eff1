// upc_wait_at_all_alloc: a thread waiting in upc_all_alloc or upc_all_lock_alloc for thread 0,
// which allocates the shared object that every thread receives (Akopyan and Andreev, ISP RAS,
// on MPI and UPC patterns: wait in upc_all_alloc). The GASP adapter records them as collective
// handle creations with root 0; the matcher puts them in no family with a stated dependency
// (CollFamily::Other), so the rule picks them out by their UPC region.
#include <string_view>

#include "catalog.h"
#include "collective_timing.h"

namespace collwrap {
namespace {

bool is_upc_all_alloc(const Trace& trace, const CollectiveMember& member) {
  const Location& l = trace.locations[member.loc];
  const std::string_view name = trace.regions[l.call_region[member.call]].name;
  return name == "upc_all_alloc" || name == "upc_all_lock_alloc";
}

// upc_wait_at_all_alloc
//   idle_i = min(Enter_0, Exit_i) − Enter_i     for every thread i ≠ 0 (the root)
void find_upc_wait_at_all_alloc(const RuleContext& context, InstanceSink& sink) {
  for_each_collective(
      context, CollFamily::Other,
      [&](const CollectiveInstance& instance, std::span<const CollectiveMember> members) {
        if (instance.op == CollOp::CreateHandle && is_upc_all_alloc(context.trace, members[0]))
          report_wait_for_root(kUpcWaitAtAllAlloc, instance, members, sink);
      });
}

}  // namespace

const Pattern kUpcWaitAtAllAlloc{
    .id = "upc_wait_at_all_alloc",
    .description =
        "A UPC thread waited in upc_all_alloc or upc_all_lock_alloc for thread 0, which "
        "allocates the shared object, to enter.",
    .formula = "min(Enter_0, Exit_i) − Enter_i",
    .peer_role = "thread 0 (the allocating thread)",
    .recommendation =
        "Allocate shared memory once, up front, rather than inside the time-stepping loop, or "
        "balance thread 0's work before the allocation; upc_alloc or upc_global_alloc by one "
        "thread need no collective.",
    .find = find_upc_wait_at_all_alloc,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
