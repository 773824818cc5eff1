// Which ops of a location one analyzer process holds the others need as ghosts.
//
// When the processes of a job divide an archive's locations (split_locations), each holds its
// share in full and, of every other location, only the ops its own locations' matching reads:
//   - both endpoints of every message whose (communicator, sender, receiver, tag) key has a
//     rank it holds a location of, as sender or receiver (a rank's threads may be held by
//     several processes: each needs the others' endpoints of the keys they share);
//   - every member of every collective on a communicator with a member rank it holds;
//   - the request records that post or complete those (IsendComplete, RequestCancelled,
//     IrecvRequest, NbcRequest).
// With them, match_trace on its partial trace pairs each of its own sends, receives and
// collective members exactly as on the whole trace (partial_trace.h). Of the one-sided
// records, besides, what the one-sided rules read:
//   - the puts, gets and atomics to a rank it holds a location of (late_wait_until,
//     rma_early_fence);
//   - the acquisitions and releases of every lock on a window with a member rank it holds
//     (lock_contention);
//   - the records that open and close a general-active-target epoch whose group has a rank it
//     holds, and the transfers of such an access epoch (rma_late_post, rma_early_wait,
//     rma_late_complete).
// And the upc_notify call (without records) of a split-phase barrier's member. Of a
// communicator that `digested_comms` digests (collective_digest.h), no member.
#pragma once

#include <cstdint>
#include <vector>

#include "matching.h"
#include "process_map.h"

namespace collwrap {

// What one process needs of a location: ops (each with its call), and calls without records
// of their own (the upc_notify of a split-phase barrier's member), both ascending.
struct GhostSelection {
  std::vector<std::uint32_t> ops;
  std::vector<std::uint32_t> calls;
  bool empty() const { return ops.empty() && calls.empty(); }
};

// For each process, what it needs of `location` (held by map.holder(location)); empty for the
// holder itself and for processes that need nothing. `links`: the location's request pairs
// (link_requests; Matching::partner_of).
std::vector<GhostSelection> select_ghosts(
    const Trace& trace, const Matching& links, std::uint32_t location, const ProcessMap& map,
    const std::vector<std::uint8_t>* digested_comms = nullptr);

}  // namespace collwrap
