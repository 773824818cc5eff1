// early_wait: time spent in MPI_Wait* or in an MPI_Test* polling loop on a nonblocking
// point-to-point request (Akopyan and Andreev, ISP RAS, "nonblocking operations").
#include <algorithm>
#include <optional>

#include "catalog.h"
#include "message_timing.h"

namespace collwrap {
namespace {

// Two MPI_Test* calls closer than this belong to one polling loop: there is no room for
// useful work between them, so the time between them is spent waiting too.
constexpr TimeNs kPollGap = 100'000;  // 100 µs

// The interval a completion call waited: the call itself for MPI_Wait*, or the polling loop
// of back-to-back MPI_Test* calls that ends with it.
struct WaitSpan {
  TimeNs begin, end;
};

WaitSpan wait_span(const Trace& trace, std::uint32_t loc, std::uint32_t call) {
  const CallView completion = call_view(trace, loc, call);
  WaitSpan span{completion.enter, completion.leave};
  if (completion.cls() != RegionClass::Test) return span;
  for (std::uint32_t c = call; c > 0; --c) {
    const CallView previous = call_view(trace, loc, c - 1);
    if (previous.cls() != RegionClass::Test || span.begin - previous.leave > kPollGap) break;
    span.begin = previous.enter;
  }
  return span;
}

// The nonblocking request completed by an op, from the waiting side: its own posting call and
// the peer's matching call. Null when the op completes nothing this pattern covers.
struct WaitedRequest {
  CallView own;   // MPI_Irecv / MPI_Isend / MPI_Start …
  CallView peer;  // the matching send (receiver side) or receive post (sender side)
};

std::optional<WaitedRequest> waited_request(const RuleContext& context, std::uint32_t loc,
                                            std::uint32_t op) {
  const Trace& trace = context.trace;
  const OpKind kind = trace.locations[loc].op_kind[op];
  if (kind == OpKind::Irecv) {
    const Message* m = message_of(context.matching, loc, op);
    if (m == nullptr) return std::nullopt;
    return WaitedRequest{receive_post_call(trace, context.matching, *m), send_call(trace, *m)};
  }
  if (kind == OpKind::IsendComplete) {
    const std::uint32_t isend = context.matching.partner_of(loc, op);
    const Message* m = isend == kNone ? nullptr : message_of(context.matching, loc, isend);
    // Only sends that need the receiver: an eager or buffered send completes by itself.
    if (m == nullptr || !send_waits_for_receiver(context, *m)) return std::nullopt;
    return WaitedRequest{send_call(trace, *m), receive_post_call(trace, context.matching, *m)};
  }
  return std::nullopt;
}

// Akopyan and Andreev's optimal distance between the nonblocking call and its wait:
//   O_D = ΔT_i + T_send                                   if the peer's call started first,
//   O_D = (Start(peer call) − Start(own call)) + ΔT_i + T_send   otherwise,
// with ΔT_i the duration of the own nonblocking call and T_send the transfer time, estimated
// as the part of the wait after both the wait and the peer's call had started.
TimeNs optimal_distance(const WaitedRequest& r, const WaitSpan& wait) {
  const TimeNs peer_delay = std::max<TimeNs>(0, r.peer.enter - r.own.enter);
  const TimeNs transfer = std::max<TimeNs>(0, wait.end - std::max(wait.begin, r.peer.enter));
  return peer_delay + r.own.duration() + transfer;
}

// early_wait
//   idle = End(wait) − Start(wait)      (Start of the polling loop for MPI_Test*)
// on the receiver side (MPI_Irecv) and on the sender side for sends that wait for the
// receiver (MPI_Issend; MPI_Isend/MPI_Irsend above the eager threshold; never MPI_Ibsend).
// A call completing several requests reports the one with the largest optimal distance.
void find_early_wait(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  std::vector<Peer> peers;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      const RegionClass cls = trace.regions[l.call_region[call]].cls;
      if (cls != RegionClass::Wait && cls != RegionClass::Test) continue;
      const WaitSpan wait = wait_span(trace, loc, call);
      InstanceDetail worst{.optimal_distance = -1};
      peers.clear();
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        const auto request = waited_request(context, loc, op);
        if (!request || !request->own.valid() || !request->peer.valid()) continue;
        const Peer peer = peer_at(trace, request->peer.loc);
        if (std::find(peers.begin(), peers.end(), peer) == peers.end()) peers.push_back(peer);
        const TimeNs distance = optimal_distance(*request, wait);
        if (distance > worst.optimal_distance)
          worst = {.related_call = request->own.call,
                   .optimal_distance = distance,
                   .actual_distance = wait.begin - request->own.enter};
      }
      const TimeNs idle = wait.end - wait.begin;
      if (!peers.empty() && idle > 0) sink.add({&kEarlyWait, loc, call, idle, peers, worst});
    }
  }
}

}  // namespace

const Pattern kEarlyWait{
    .id = "early_wait",
    .may_include = {"late_sender", "late_receiver"},
    .description =
        "A wait (MPI_Wait* or an MPI_Test* polling loop) on a nonblocking send or receive idled "
        "because it was called before the data could be there.",
    .formula = "End(wait) − Start(wait), Start of the polling loop for MPI_Test*",
    .peer_role = "peer",
    .related_role = "Request started by",
    .recommendation =
        "Move independent computation between the nonblocking call and its wait, so that the wait "
        "starts no earlier than the estimated optimal distance after the nonblocking call.",
    .find = find_early_wait,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
