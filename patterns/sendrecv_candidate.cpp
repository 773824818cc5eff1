// sendrecv_candidate: a blocking send and a blocking receive with the same peer, back to back,
// that MPI_Sendrecv could overlap (Akopyan and Andreev, ISP RAS, "close send/receive").
#include <algorithm>
#include <optional>

#include "catalog.h"
#include "message_timing.h"

namespace collwrap {
namespace {

// The peer (world rank) and communicator of the single matched message in a call, when the
// call is a blocking send or a blocking receive.
struct Exchange {
  bool sends = false;
  Peer peer;
  std::uint32_t comm = kNone;
};

std::optional<Exchange> blocking_exchange(const RuleContext& context, std::uint32_t loc,
                                          std::uint32_t call) {
  const Trace& trace = context.trace;
  const Location& l = trace.locations[loc];
  const RegionClass cls = trace.regions[l.call_region[call]].cls;
  if (cls != RegionClass::BlockingSend && cls != RegionClass::BlockingRecv) return std::nullopt;
  const bool sends = cls == RegionClass::BlockingSend;
  const OpKind wanted = sends ? OpKind::Send : OpKind::Recv;
  for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
    if (l.op_kind[op] != wanted) continue;
    const Message* m = message_of(context.matching, loc, op);
    if (m == nullptr) return std::nullopt;
    const OpRef other = sends ? m->recv : m->send;
    return Exchange{sends, peer_at(trace, other.loc), l.op_comm[op]};
  }
  return std::nullopt;
}

// sendrecv_candidate
//   Start(second) − End(first) < Δ      (--sendrecv-window), first/second = a blocking send and
//                                        a blocking receive, in either order, same peer and comm
//   saving = min(duration(first), duration(second))
// MPI_Sendrecv moves both messages at once over a full-duplex link, so the shorter of the two
// calls is what it saves. Reported at the first call. Each call joins at most one pair, so an
// exchange loop (send, receive, send, receive, …) yields one pair per round, not two.
void find_sendrecv_candidate(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call + 1 < l.calls(); ++call) {
      const CallView first = call_view(trace, loc, call);
      const CallView second = call_view(trace, loc, call + 1);
      if (second.enter - first.leave >= context.options.sendrecv_window) continue;
      const auto a = blocking_exchange(context, loc, call);
      const auto b = a ? blocking_exchange(context, loc, call + 1) : std::nullopt;
      if (!b || a->sends == b->sends || a->peer.rank != b->peer.rank || a->comm != b->comm)
        continue;
      const TimeNs saving = std::min(first.duration(), second.duration());
      if (saving > 0)
        sink.add(
            {&kSendrecvCandidate, loc, call, saving, {&a->peer, 1}, {.related_call = call + 1}});
      ++call;  // the second call is taken
    }
  }
}

}  // namespace

const Pattern kSendrecvCandidate{
    .id = "sendrecv_candidate",
    .waiting = false,
    .description =
        "A blocking send and a blocking receive with the same peer follow each other closely; "
        "MPI_Sendrecv would move both messages at once.",
    .formula =
        "min(duration(first), duration(second)) when Start(second) − End(first) < "
        "--sendrecv-window",
    .peer_role = "peer",
    .related_role = "Followed by",
    .recommendation =
        "Replace the MPI_Send/MPI_Recv pair (on both ranks) with one MPI_Sendrecv; the reported "
        "time is what overlapping the two transfers would save.",
    .find = find_sendrecv_candidate,
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
