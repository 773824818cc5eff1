#include "transfers.h"

namespace collwrap {
namespace {

void visit_messages(const Trace& trace, const Matching& matching,
                    const std::function<void(const Transfer&)>& visit, const LocationRange& at) {
  for (const Message& m : matching.messages) {
    // The reader drops ops outside any call, so a matched op always has one; stay safe anyway.
    if (!m.send.valid() || !m.recv.valid() || !at.contains(m.send.loc)) continue;
    const Location& sender = trace.locations[m.send.loc];
    const Location& receiver = trace.locations[m.recv.loc];
    const std::uint32_t send_call = sender.op_call[m.send.op];
    const std::uint32_t recv_call = receiver.op_call[m.recv.op];
    if (send_call == kNone || recv_call == kNone) continue;
    visit({.from = sender.rank,
           .to = receiver.rank,
           .bytes = sender.bytes_sent(m.send.op),
           .issued = m.send,
           .call = send_call,
           .start = sender.call_enter[send_call],
           .done = receiver.call_leave[recv_call]});
  }
}

void visit_one_sided(const Trace& trace, const std::function<void(const Transfer&)>& visit,
                     const LocationRange& at) {
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    if (!at.contains(loc)) continue;
    const Location& l = trace.locations[loc];
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      const std::int32_t peer = l.op_peer[op];
      const std::uint32_t call = l.op_call[op];
      if ((kind != OpKind::RmaPut && kind != OpKind::RmaGet && kind != OpKind::RmaAtomic) ||
          peer == kNoWorldRank || call == kNone)
        continue;
      Transfer t{.one_sided = true,
                 .issued = {loc, op},
                 .call = call,
                 .start = l.call_enter[call],
                 .done = l.call_leave[call]};
      if (kind != OpKind::RmaGet) {
        t.from = l.rank, t.to = peer, t.bytes = l.bytes_sent(op);
        visit(t);
      }
      if (const std::uint64_t received = l.bytes_received(op); received > 0) {
        t.from = peer, t.to = l.rank, t.bytes = received;
        visit(t);
      }
    }
  }
}

}  // namespace

void for_each_transfer(const Trace& trace, const Matching& matching,
                       const std::function<void(const Transfer&)>& visit, const LocationRange& at) {
  visit_messages(trace, matching, visit, at);
  visit_one_sided(trace, visit, at);
}

}  // namespace collwrap
