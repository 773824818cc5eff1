// Blocking point-to-point wait states: late_sender and late_receiver (Scalasca's definitions;
// Akopyan and Andreev, ISP RAS, "Inefficiency patterns in parallel MPI and UPC applications").
#include "catalog.h"
#include "message_timing.h"
#include "worst_wait.h"

namespace collwrap {
namespace {

// late_sender
//   idle = min(Enter_send, Exit_recv) − Enter_recv
// on the call that completes the receive: MPI_Recv, MPI_Sendrecv, or MPI_Wait* completing an
// MPI_Irecv. Whatever the send mode, the receiver had to wait for the send to start.
void find_late_sender(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  WorstWait worst;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        if (l.op_kind[op] != OpKind::Recv && l.op_kind[op] != OpKind::Irecv) continue;
        const Message* m = message_of(context.matching, loc, op);
        if (m == nullptr) continue;
        const MessageCalls calls = message_calls(trace, *m);
        worst.add(late_sender_idle(calls), peer_at(trace, m->send.loc),
                  {.send_mode = send_mode(calls.send)});
      }
      worst.flush(kLateSender, loc, call, sink);
    }
  }
}

// The send-side call that blocks until the receive is posted: the blocking send itself, or
// the Wait that completes a nonblocking one. Null when the op is neither.
const Message* blocking_send_message(const RuleContext& context, std::uint32_t loc,
                                     std::uint32_t op, RegionClass cls) {
  const OpKind kind = context.trace.locations[loc].op_kind[op];
  if (kind == OpKind::Send && cls == RegionClass::BlockingSend)
    return message_of(context.matching, loc, op);
  if (kind == OpKind::IsendComplete && cls == RegionClass::Wait) {
    const std::uint32_t isend = context.matching.partner_of(loc, op);
    return isend == kNone ? nullptr : message_of(context.matching, loc, isend);
  }
  return nullptr;
}

// late_receiver
//   idle = min(Enter_recv_post, Exit_send) − Enter_send
// for MPI_Ssend, MPI_Send/MPI_Rsend above the eager threshold, and MPI_Wait* completing such
// a nonblocking send. Eager and buffered sends complete locally and never count (Akopyan and
// Andreev).
void find_late_receiver(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  WorstWait worst;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      const CallView blocked = call_view(trace, loc, call);
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        const Message* m = blocking_send_message(context, loc, op, blocked.cls());
        if (m == nullptr || !send_waits_for_receiver(context, *m)) continue;
        const CallView post = receive_post_call(trace, context.matching, *m);
        if (!post.valid()) continue;
        worst.add(idle_until(post.enter, blocked), peer_at(trace, post.loc),
                  {.send_mode = send_mode(trace, *m)});
      }
      worst.flush(kLateReceiver, loc, call, sink);
    }
  }
}

}  // namespace

const Pattern kLateSender{
    .id = "late_sender",
    .description =
        "A receive (MPI_Recv, MPI_Sendrecv, or MPI_Wait* on an MPI_Irecv) waited for its matching "
        "send to start.",
    .formula = "min(Enter_send, Exit_recv) − Enter_recv",
    .peer_role = "late sender",
    .recommendation =
        "Balance the work before the send on the sending rank, or receive with MPI_Irecv and do "
        "independent work before its MPI_Wait.",
    .find = find_late_sender,
    .reach = RuleReach::Partners,
};

const Pattern kLateReceiver{
    .id = "late_receiver",
    .description =
        "A synchronous send, or a standard/ready send above the eager threshold, waited for its "
        "matching receive to be posted.",
    .formula = "min(Enter_recv_post, Exit_send) − Enter_send",
    .peer_role = "late receiver",
    .recommendation =
        "Post the receive earlier on the receiving rank (MPI_Irecv before the work), balance the "
        "work before it, or use a nonblocking send (MPI_Isend) and wait for it later.",
    .find = find_late_receiver,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
