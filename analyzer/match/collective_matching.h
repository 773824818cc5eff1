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
// With `digests` (a process of a job), an instance of a digested communicator takes what its
// digest says of all members (complete, mismatched, its operation and root) and refers to it
// (CollectiveInstance::digest); its members are those of the trace, and each is counted as a
// clock violation at its own location against the digest's entries.
void match_collectives(const Trace& trace, Matching& matching, MatchCounts& counts,
                       const LocationRange& counted = {},
                       const CollectiveDigests* digests = nullptr);

}  // namespace collwrap
