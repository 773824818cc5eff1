// lock_contention: time a process spent acquiring a lock while another process held it
// (Akopyan and Andreev, ISP RAS, synchronization patterns of UPC programs: lock contention;
// the same for OpenSHMEM's shmem_set_lock and MPI's window locks, Scalasca's RMA lock
// competition). A lock is a lock id on a window (an MPI window lock is the lock of one target
// rank); shared holds (MPI_LOCK_SHARED, MPI_Win_lock_all) exclude only exclusive requests.
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
  bool shared;
};

// A lock: the window's communicator and the lock id (op_comm, op_tag).
using LockKey = std::uint64_t;
LockKey lock_key(const Location& l, std::uint32_t op) {
  return (std::uint64_t{l.op_comm[op]} << 32) | static_cast<std::uint32_t>(l.op_tag[op]);
}
bool shared_lock(const Location& l, std::uint32_t op) {
  return l.bytes_sent(op) != 0;
}

// A lock's holds in time order of acquisition, and the longest of them.
struct Holds {
  std::vector<Hold> holds;
  TimeNs longest = 0;
};

std::unordered_map<LockKey, Holds> lock_holds(const Trace& trace) {
  std::unordered_map<LockKey, Holds> holds;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    std::unordered_map<LockKey, std::pair<TimeNs, bool>> acquired;
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      if (l.op_kind[op] == OpKind::RmaLockAcquire) {
        acquired[lock_key(l, op)] = {l.op_time(op), shared_lock(l, op)};
      } else if (l.op_kind[op] == OpKind::RmaLockRelease) {
        const auto it = acquired.find(lock_key(l, op));
        if (it == acquired.end()) continue;
        Holds& lock = holds[it->first];
        lock.holds.push_back({it->second.first, l.op_time(op), loc, it->second.second});
        lock.longest = std::max(lock.longest, l.op_time(op) - it->second.first);
        acquired.erase(it);
      }
    }
  }
  // Stable, so that holders that acquired at the same time are named in the same order on a
  // divided trace, which holds some of the locations as ghosts, as on the whole.
  for (auto& [lock, list] : holds)
    std::stable_sort(list.holds.begin(), list.holds.end(),
                     [](const Hold& a, const Hold& b) { return a.begin < b.begin; });
  return holds;
}

// lock_contention
//   idle = Σ over other processes' holds h of |[Start(acquire), Acquired] ∩ [Acquired(h),
//   Released(h)]|, holds of a shared lock not counted for a shared request
// peers: the processes that held the lock meanwhile.
void find_lock_contention(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  const auto holds = lock_holds(trace);
  std::vector<Peer> peers;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      std::uint32_t request = kNone, acquire = kNone;
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        if (l.op_kind[op] == OpKind::RmaLockRequest && request == kNone) request = op;
        if (l.op_kind[op] == OpKind::RmaLockAcquire && request != kNone &&
            lock_key(l, op) == lock_key(l, request))
          acquire = op;
      }
      if (acquire == kNone) continue;
      const auto list = holds.find(lock_key(l, acquire));
      if (list == holds.end()) continue;
      const bool shared = shared_lock(l, acquire);
      const TimeNs begin = l.call_enter[call], end = l.op_time(acquire);
      TimeNs idle = 0;
      peers.clear();
      // Holds are sorted by acquisition; shared ones may overlap, so their ends are not sorted,
      // but none that began more than the longest hold before `begin` reaches it.
      const std::vector<Hold>& all = list->second.holds;
      auto h = std::partition_point(all.begin(), all.end(), [&](const Hold& hold) {
        return hold.begin < begin - list->second.longest;
      });
      for (; h != all.end() && h->begin < end; ++h) {
        if (h->loc == loc || h->end <= begin || (shared && h->shared)) continue;
        const TimeNs overlap = std::min(end, h->end) - std::max(begin, h->begin);
        if (overlap <= 0) continue;
        idle += overlap;
        const Peer holder = peer_at(trace, h->loc);
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
        "A lock acquisition (shmem_set_lock, upc_lock, MPI_Win_lock) waited while another "
        "process held the lock.",
    .formula =
        "Σ over other holders of |[Start(acquire), Acquired] ∩ [Acquired, Released] of the holder|",
    .peer_role = "lock holder",
    .recommendation =
        "Shorten the critical section of the holder (move work out of it), split the lock into "
        "finer locks, or replace lock-protected updates by atomic operations.",
    .find = find_lock_contention,
    .needs = {OpKind::RmaLockRequest},
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
