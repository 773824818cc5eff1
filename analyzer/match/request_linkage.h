// Pairs each nonblocking request's posting record with the record that closed it, within one
// location: Isend → IsendComplete, IrecvRequest → Irecv, NbcRequest → NbcComplete, any of the
// three → RequestCancelled. A persistent request keeps its id across restarts, so ids are
// paired in sequence: a completion closes the latest open post with its id.
#pragma once

#include "matching.h"

namespace collwrap {

// Fills matching.request_partner and counts matching.counts.unmatched_requests: completions
// without a post, and posts never completed (a new post with the same id, or the stream's end).
// Locations are independent: `threads` of them are linked at once (0: one per core). Counts
// only at the `counted` locations. The `linked` locations keep the pairs and counts `matching`
// has of them: an earlier call linked them.
void link_requests(const Trace& trace, Matching& matching, unsigned threads,
                   const LocationRange& counted = {}, const LocationRange& linked = {0, 0});

}  // namespace collwrap
