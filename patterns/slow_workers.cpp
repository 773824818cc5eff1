// slow_workers: the master of a master-worker program idled waiting for one worker's result
// after another worker of the same round had delivered its own (Akopyan and Andreev, ISP RAS,
// master-worker patterns of UPC programs: slow workers).
#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "catalog.h"
#include "master_worker.h"
#include "transfers.h"

namespace collwrap {
namespace {

// The master's traffic: when it handed data to each worker, and when each result reached it.
class MasterTraffic {
 public:
  MasterTraffic(const RuleContext& context, std::int32_t master) {
    for_each_transfer(context.trace, context.matching, [&](const Transfer& t) {
      if (t.from == master && t.to != master) handouts_[t.to].push_back(t.start);
      if (t.to == master && t.from != master) results_.push_back({t.done, t.from});
    });
    for (auto& [worker, starts] : handouts_) std::sort(starts.begin(), starts.end());
    std::sort(results_.begin(), results_.end(),
              [](const Result& a, const Result& b) { return a.done < b.done; });
  }

  // Start of the master's last transfer to `worker` before `t`: the hand-out of the work the
  // master is waiting for. Without one, the round began with the trace.
  TimeNs round_start(std::int32_t worker, TimeNs t) const {
    const auto it = handouts_.find(worker);
    if (it == handouts_.end()) return std::numeric_limits<TimeNs>::min();
    const auto& starts = it->second;
    const auto after = std::lower_bound(starts.begin(), starts.end(), t);
    return after == starts.begin() ? std::numeric_limits<TimeNs>::min() : *(after - 1);
  }

  // The first completion in (from, until) of a transfer to the master by another process than
  // `worker`.
  std::optional<TimeNs> first_other_result(std::int32_t worker, TimeNs from, TimeNs until) const {
    auto it = std::upper_bound(results_.begin(), results_.end(), from,
                               [](TimeNs v, const Result& r) { return v < r.done; });
    for (; it != results_.end() && it->done < until; ++it)
      if (it->from != worker) return it->done;
    return std::nullopt;
  }

 private:
  struct Result {
    TimeNs done;
    std::int32_t from;
  };
  std::map<std::int32_t, std::vector<TimeNs>> handouts_;
  std::vector<Result> results_;
};

// slow_workers (the master's idle time)
//   for a wait of the master for worker w's data (a late_sender or late_wait_until instance,
//   released at Enter(wait) + idle), let round = Start of the master's last transfer to w before
//   the wait, and first = the first completion after round of a transfer to the master by
//   another worker;
//   idle = released − max(Enter(wait), first), when first < released:
//   the time the master still waited for w after another worker of the round had delivered.
//   The worker waited for is the peer.
void find_slow_workers(const RuleContext& context, InstanceSink& sink) {
  const std::int32_t master = master_of(context.trace, context.matching);
  if (master == kNoWorldRank) return;
  const MasterTraffic traffic(context, master);
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
};

}  // namespace collwrap
