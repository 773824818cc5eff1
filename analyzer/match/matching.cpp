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

OpRef send_done(const Trace& trace, const Matching& matching, const Message& m) {
  if (trace.locations[m.send.loc].op_kind[m.send.op] == OpKind::Send) return m.send;
  const std::uint32_t done = matching.request_partner[m.send.loc][m.send.op];
  return done == kNone ? OpRef{} : OpRef{m.send.loc, done};
}

OpRef recv_post(const Matching& matching, const Message& m) {
  const std::uint32_t post = matching.request_partner[m.recv.loc][m.recv.op];
  return post == kNone ? m.recv : OpRef{m.recv.loc, post};
}

}  // namespace collwrap
