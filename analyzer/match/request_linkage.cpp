#include "request_linkage.h"

#include <algorithm>

#include "flat_map.h"
#include "parallel_for.h"

namespace collwrap {
namespace {

bool is_post(OpKind k) {
  return k == OpKind::Isend || k == OpKind::IrecvRequest || k == OpKind::NbcRequest;
}

// The completion record that may close a post of kind `post`.
OpKind completion_of(OpKind post) {
  switch (post) {
    case OpKind::Isend:
      return OpKind::IsendComplete;
    case OpKind::IrecvRequest:
      return OpKind::Irecv;
    default:
      return OpKind::NbcComplete;
  }
}

bool is_completion(OpKind k) {
  return k == OpKind::IsendComplete || k == OpKind::Irecv || k == OpKind::NbcComplete ||
         k == OpKind::RequestCancelled;
}

}  // namespace

void link_requests(const Trace& trace, Matching& matching, unsigned threads,
                   const LocationRange& counted, const LocationRange& linked) {
  matching.request_partner.resize(trace.locations.size());
  std::vector<std::uint64_t> unmatched(trace.locations.size(), 0);
  parallel_for(trace.locations.size(), threads, [&](std::size_t li) {
    if (linked.contains(li)) return;
    const Location& l = trace.locations[li];
    if (std::none_of(l.op_kind.begin(), l.op_kind.end(),
                     [](OpKind k) { return is_post(k) || is_completion(k); }))
      return;  // no pairs: the location's table stays empty (Matching::partner_of)
    std::vector<std::uint32_t>& partner = matching.request_partner[li];
    partner.assign(l.ops(), kNone);
    FlatMap<std::uint64_t, U64Hash> open;  // request id → its open post
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      if (is_post(kind)) {
        if (open.assign(l.request(op), op) != kNone) ++unmatched[li];
      } else if (is_completion(kind)) {
        const std::uint32_t post = open.erase(l.request(op));
        if (post == kNone) {
          ++unmatched[li];
        } else if (kind == OpKind::RequestCancelled || kind == completion_of(l.op_kind[post])) {
          partner[op] = post;
          partner[post] = op;
        } else {  // e.g. an IsendComplete for a receive's id: neither record has its partner
          unmatched[li] += 2;
        }
      }
    }
    unmatched[li] += open.size();
  });
  for (std::size_t li = 0; li < unmatched.size(); ++li)
    if (counted.contains(li)) matching.counts.unmatched_requests += unmatched[li];
}

}  // namespace collwrap
