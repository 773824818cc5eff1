#include "matching.h"

#include "collective_matching.h"
#include "p2p_matching.h"
#include "request_linkage.h"

namespace collwrap {

Matching match_trace(const Trace& trace) {
  Matching matching;
  link_requests(trace, matching);  // both matchers order nonblocking operations by their post
  match_messages(trace, matching);
  match_collectives(trace, matching);
  return matching;
}

}  // namespace collwrap
