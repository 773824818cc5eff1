// Collective instances. MPI requires the members of a communicator to call its collectives,
// blocking and nonblocking together, in one order, so the n-th collective that each member
// calls on a communicator belongs to the communicator's n-th instance. A nonblocking
// collective takes its place in that order where it was posted (its NbcRequest) and takes its
// operation and communicator from the NbcComplete that closed it.
#pragma once

#include "matching.h"

namespace collwrap {

// Needs matching.request_partner (link_requests). Fills collectives, members and starts, and
// counts into `counts` incomplete and mismatched instances, invalid ops, and members that left
// before a member they depend on had entered (clock violations, see collective_family).
// Touches no other part of `matching`, so that it can run beside match_messages. Counts only
// invalid ops at the `counted` locations and instances whose first member is there.
//
// `digested_comms` (a process of a job, collective_digest.h): the communicators whose instances
// have only this process's members here; they are not counted, their figures and counts come
// from apply_digests.
//
// The instances are matched on `threads` threads (0: one per core), ranges of them side by
// side; the result does not depend on their number.
void match_collectives(const Trace& trace, Matching& matching, MatchCounts& counts,
                       const LocationRange& counted = {},
                       const std::vector<std::uint8_t>* digested_comms = nullptr,
                       unsigned threads = 1);

}  // namespace collwrap
