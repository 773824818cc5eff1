// Point-to-point arithmetic shared by the message rules: send modes, eager thresholds and
// the two basic message wait states.
#pragma once

#include <cstdint>

#include "pattern.h"
#include "trace_access.h"

namespace collwrap {

// The mode the message was sent in. Persistent sends started by MPI_Start(all) carry no mode
// in the trace and count as standard.
SendMode send_mode(const Trace& trace, const Message& m);
// The same, of the call that started the send.
SendMode send_mode(const CallView& send);

std::uint64_t message_bytes(const Trace& trace, const Message& m);

// --eager-threshold when given, else Open MPI's limit for the path the message took.
std::uint64_t eager_threshold(const Trace& trace, const RuleOptions& options, const Message& m);

// Akopyan and Andreev (ISP RAS): a synchronous send, or a standard/ready send above the eager
// threshold, cannot complete before the receive is posted. A buffered send, or a standard/ready
// send of at most the threshold, is local. Exactly at the threshold is still eager.
bool send_waits_for_receiver(SendMode mode, std::uint64_t bytes, std::uint64_t threshold);
bool send_waits_for_receiver(const RuleContext& context, const Message& m);

// Enter of the call that started the send (MPI_Send, MPI_Isend, MPI_Start, …).
inline CallView send_call(const Trace& trace, const Message& m) {
  return call_holding(trace, m.send);
}
// The call that posted the receive (MPI_Recv, MPI_Irecv, MPI_Start, …).
CallView receive_post_call(const Trace& trace, const Matching& matching, const Message& m);
// The call that completed the receive (MPI_Recv, MPI_Sendrecv, MPI_Wait*, MPI_Test*).
inline CallView receive_completion_call(const Trace& trace, const Message& m) {
  return call_holding(trace, m.recv);
}

// A message's calls at both ends, each looked up once: a rule that asks several questions of
// a message reads the sender's columns once rather than at each.
struct MessageCalls {
  CallView send;  // send_call
  CallView recv;  // receive_completion_call
};
inline MessageCalls message_calls(const Trace& trace, const Message& m) {
  return {send_call(trace, m), receive_completion_call(trace, m)};
}

// late_sender: min(Enter_send, Exit_recv) − Enter_recv on the call that completed the receive,
// when that call blocks (a receive, Sendrecv or Wait*; a Test never blocks): 0 otherwise.
TimeNs late_sender_idle(const MessageCalls& calls);

}  // namespace collwrap
