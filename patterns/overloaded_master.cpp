// overloaded_master: the workers of a master-worker program idled waiting for the master to
// hand out work while the master was busy, not itself waiting (Akopyan and Andreev, ISP RAS,
// master-worker patterns of UPC programs: overloaded master).
#include <algorithm>
#include <map>
#include <optional>

#include "catalog.h"
#include "master_worker.h"
#include "traffic_totals.h"

namespace collwrap {
namespace {

// Disjoint time intervals [begin, end), for the time an interval shares with them.
class IntervalUnion {
 public:
  void add(TimeNs begin, TimeNs end) {
    if (begin >= end) return;
    auto next = spans_.upper_bound(begin);
    if (next != spans_.begin() && std::prev(next)->second >= begin) {
      next = std::prev(next);
      begin = next->first;
    }
    while (next != spans_.end() && next->first <= end) {
      end = std::max(end, next->second);
      next = spans_.erase(next);
    }
    spans_[begin] = end;
  }

  TimeNs overlap(TimeNs begin, TimeNs end) const {
    TimeNs shared = 0;
    auto it = spans_.upper_bound(begin);
    if (it != spans_.begin()) --it;
    for (; it != spans_.end() && it->first < end; ++it)
      shared += std::max<TimeNs>(0, std::min(end, it->second) - std::max(begin, it->first));
    return shared;
  }

 private:
  std::map<TimeNs, TimeNs> spans_;  // begin → end
};

// overloaded_master (the workers' idle time)
//   idle = the late_sender or late_wait_until idle of a worker's wait for the master's data,
//   less the part of it, [Enter(wait), Enter(wait) + idle), during which the master was itself
//   in such a wait for a worker: a master waiting on a slow worker is not overloaded
//   (slow_workers). The master is the peer.
void find_overloaded_master(const RuleContext& context, InstanceSink& sink) {
  std::optional<TrafficTotals> own;
  const MasterTraffic& traffic = totals_for(context, own).master;
  const std::int32_t master = traffic.master;
  if (master == kNoWorldRank) return;
  IntervalUnion master_waiting;
  for (const MasterTraffic::Wait& w : traffic.waits) master_waiting.add(w.enter, w.released);
  for (const DataWait& w : data_waits(context)) {
    if (w.rank == master || w.peer.rank != master) continue;
    const TimeNs idle = w.released - w.enter - master_waiting.overlap(w.enter, w.released);
    if (idle <= 0) continue;
    sink.add({&kOverloadedMaster, w.loc, w.call, idle, {&w.peer, 1}, {}});
  }
}

}  // namespace

const Pattern kOverloadedMaster{
    .id = "overloaded_master",
    .may_include = {"late_sender", "late_wait_until"},
    .description =
        "A worker of a master-worker program (the master being the one process that exchanged "
        "data with all others) waited for the master's data while the master was busy, not "
        "waiting for another worker.",
    .formula =
        "the late_sender or late_wait_until idle of the worker's wait for the master, less "
        "its overlap with the master's own waits for workers' data",
    .peer_role = "master",
    .recommendation =
        "Take work off the master: let workers fetch their input themselves (shmem_get, "
        "one-sided reads of a shared work queue with an atomic counter), hand out larger "
        "pieces, or spread the distribution and collection over several processes.",
    .find = find_overloaded_master,
    .reach = RuleReach::Totals,
};

}  // namespace collwrap
