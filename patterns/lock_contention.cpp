// lock_contention: time a process spent acquiring a lock while another process held it
// (Akopyan and Andreev, ISP RAS, synchronization patterns of UPC programs: lock contention;
// the same for OpenSHMEM's shmem_set_lock and MPI's window locks).
#include <algorithm>
#include <unordered_map>

#include "catalog.h"
#include "trace_access.h"

namespace collwrap {
namespace {

// One process holding a lock, from its RmaAcquireLock to its RmaReleaseLock.
struct Hold {
  TimeNs begin, end;
  std::uint32_t loc;
};

// Every lock's holds, by lock (op_tag), in time order. The holds of one lock exclude each other,
// so their ends are in time order too.
std::unordered_map<std::int32_t, std::vector<Hold>> lock_holds(const Trace& trace) {
  std::unordered_map<std::int32_t, std::vector<Hold>> holds;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    std::unordered_map<std::int32_t, TimeNs> acquired;
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      if (l.op_kind[op] == OpKind::RmaLockAcquire) {
        acquired[l.op_tag[op]] = l.op_time[op];
      } else if (l.op_kind[op] == OpKind::RmaLockRelease) {
        const auto it = acquired.find(l.op_tag[op]);
        if (it == acquired.end()) continue;
        holds[l.op_tag[op]].push_back({it->second, l.op_time[op], loc});
        acquired.erase(it);
      }
    }
  }
  for (auto& [lock, list] : holds)
    std::sort(list.begin(), list.end(),
              [](const Hold& a, const Hold& b) { return a.begin < b.begin; });
  return holds;
}

// lock_contention
//   idle = Σ over other processes' holds h of |[Start(acquire), Acquired] ∩ [Acquired(h),
//   Released(h)]|
// peers: the processes that held the lock meanwhile.
void find_lock_contention(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  const auto holds = lock_holds(trace);
  std::vector<std::int32_t> peers;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      std::uint32_t request = kNone, acquire = kNone;
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        if (l.op_kind[op] == OpKind::RmaLockRequest && request == kNone) request = op;
        if (l.op_kind[op] == OpKind::RmaLockAcquire && request != kNone &&
            l.op_tag[op] == l.op_tag[request])
          acquire = op;
      }
      if (acquire == kNone) continue;
      const auto list = holds.find(l.op_tag[acquire]);
      if (list == holds.end()) continue;
      const TimeNs begin = l.call_enter[call], end = l.op_time[acquire];
      auto h = std::partition_point(list->second.begin(), list->second.end(),
                                    [&](const Hold& hold) { return hold.end <= begin; });
      TimeNs idle = 0;
      peers.clear();
      for (; h != list->second.end() && h->begin < end; ++h) {
        if (h->loc == loc) continue;
        const TimeNs overlap = std::min(end, h->end) - std::max(begin, h->begin);
        if (overlap <= 0) continue;
        idle += overlap;
        const std::int32_t holder = rank_of(trace, h->loc);
        if (std::find(peers.begin(), peers.end(), holder) == peers.end()) peers.push_back(holder);
      }
      if (idle > 0) sink.add({&kLockContention, loc, call, idle, peers, {}});
    }
  }
}

}  // namespace

const Pattern kLockContention{
    .id = "lock_contention",
    .description =
        "A lock acquisition (shmem_set_lock, upc_lock) waited while another process held the lock.",
    .formula =
        "Σ over other holders of |[Start(acquire), Acquired] ∩ [Acquired, Released] of the holder|",
    .peer_role = "lock holder",
    .recommendation =
        "Shorten the critical section of the holder (move work out of it), split the lock into "
        "finer locks, or replace lock-protected updates by atomic operations.",
    .find = find_lock_contention,
};

}  // namespace collwrap
