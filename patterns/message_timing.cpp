#include "message_timing.h"

namespace collwrap {

SendMode send_mode(const Trace& trace, const Message& m) {
  return send_mode(send_call(trace, m));
}

SendMode send_mode(const CallView& send) {
  if (!send.valid() || send.region->mode == SendMode::None) return SendMode::Standard;
  return send.region->mode;
}

std::uint64_t message_bytes(const Trace& trace, const Message& m) {
  return trace.locations[m.send.loc].bytes_sent(m.send.op);
}

std::uint64_t eager_threshold(const Trace& trace, const RuleOptions& options, const Message& m) {
  if (options.eager_threshold) return *options.eager_threshold;
  const bool same_node = trace.locations[m.send.loc].node == trace.locations[m.recv.loc].node;
  return same_node ? kSharedMemoryEagerBytes : kNetworkEagerBytes;
}

bool send_waits_for_receiver(SendMode mode, std::uint64_t bytes, std::uint64_t threshold) {
  switch (mode) {
    case SendMode::Synchronous:
      return true;
    case SendMode::Buffered:
      return false;
    case SendMode::None:
    case SendMode::Standard:
    case SendMode::Ready:
      return bytes > threshold;
  }
  return false;
}

bool send_waits_for_receiver(const RuleContext& context, const Message& m) {
  return send_waits_for_receiver(send_mode(context.trace, m), message_bytes(context.trace, m),
                                 eager_threshold(context.trace, context.options, m));
}

CallView receive_post_call(const Trace& trace, const Matching& matching, const Message& m) {
  return call_holding(trace, recv_post(matching, m));
}

TimeNs late_sender_idle(const MessageCalls& calls) {
  const auto& [send, recv] = calls;
  if (!recv.valid() || !send.valid()) return 0;
  switch (recv.cls()) {
    case RegionClass::BlockingRecv:
    case RegionClass::Sendrecv:
    case RegionClass::Wait:
      return idle_until(send.enter, recv);
    default:
      return 0;
  }
}

}  // namespace collwrap
