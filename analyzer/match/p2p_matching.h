// Point-to-point messages: the n-th send with key (communicator, sender, receiver, tag) goes
// to the n-th receive, in posting order, whose recorded actual source and tag give that key.
// Sends count in post order (Send, or Isend at MPI_Isend/MPI_Start); receives in posting
// order (the Recv itself, or the IrecvRequest of a nonblocking receive). Wildcard receives
// need no special case: the trace records the source and tag they actually matched.
#pragma once

#include "matching.h"

namespace collwrap {

// Needs matching.request_partner (link_requests). Fills messages and message_of_op, and
// counts into `counts` messages, unmatched sends/receives, invalid ops and messages received
// before they were sent (clock violations). Touches no other part of `matching`, so that it can
// run beside match_collectives. Scans the sends and the receives side by side on `threads`
// threads; the result does not depend on their number. Beyond its results it keeps only a few
// figures per key (no table per send or receive).
// Counts only at the `counted` locations: unmatched and invalid endpoints where they are,
// messages and their violations at the receive.
void match_messages(const Trace& trace, Matching& matching, MatchCounts& counts,
                    unsigned threads = 1, const LocationRange& counted = {});

}  // namespace collwrap
