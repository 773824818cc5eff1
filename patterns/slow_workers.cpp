// slow_workers: the master of a master-worker program idled waiting for one worker's result
// after another worker of the same round had delivered its own (Akopyan and Andreev, ISP RAS,
// master-worker patterns of UPC programs: slow workers).
#include <algorithm>
#include <optional>

#include "catalog.h"
#include "master_worker.h"
#include "traffic_totals.h"

namespace collwrap {
namespace {

// slow_workers (the master's idle time)
//   for a wait of the master for worker w's data (a late_sender or late_wait_until instance,
//   released at Enter(wait) + idle), let round = Start of the master's last transfer to w before
//   the wait, and first = the first completion after round of a transfer to the master by
//   another worker;
//   idle = released − max(Enter(wait), first), when first < released:
//   the time the master still waited for w after another worker of the round had delivered.
//   The worker waited for is the peer.
void find_slow_workers(const RuleContext& context, InstanceSink& sink) {
  std::optional<TrafficTotals> own;
  const MasterTraffic& traffic = totals_for(context, own).master;
  const std::int32_t master = traffic.master;
  if (master == kNoWorldRank) return;
  for (const DataWait& w : data_waits(context)) {
    if (w.rank != master) continue;
    const std::optional<TimeNs> first = traffic.first_other_result(
        w.peer.rank, traffic.round_start(w.peer.rank, w.enter), w.released);
    if (!first) continue;
    sink.add(
        {&kSlowWorkers, w.loc, w.call, w.released - std::max(w.enter, *first), {&w.peer, 1}, {}});
  }
}

}  // namespace

const Pattern kSlowWorkers{
    .id = "slow_workers",
    .may_include = {"late_sender", "late_wait_until"},
    .description =
        "The master of a master-worker program (the one process that exchanged data with all "
        "others, which exchanged none among themselves) waited for one worker's result after "
        "another worker of the same round had delivered its own.",
    .formula =
        "Enter(wait) + the late_sender or late_wait_until idle − max(Enter(wait), first "
        "completion of another worker's transfer to the master since the master's last "
        "transfer to the awaited worker)",
    .peer_role = "slow worker",
    .recommendation =
        "Take results in the order they come (MPI_ANY_SOURCE / MPI_Waitany, or test the "
        "workers' flags in turn with shmem_test) and hand out work in smaller pieces on demand, "
        "so that a slow worker gets less of it.",
    .find = find_slow_workers,
    .reach = RuleReach::Totals,
};

}  // namespace collwrap
