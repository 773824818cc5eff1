// wrong_order: a late-sender wait while an earlier message for the same receiver had already
// arrived (Akopyan and Andreev, ISP RAS, "wrong order"; Scalasca's "Late Sender, Wrong Order").
#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "catalog.h"
#include "message_timing.h"
#include "worst_wait.h"

namespace collwrap {
namespace {

// One received message, seen from its receiver.
struct Received {
  std::uint32_t call;  // the call that completed the receive
  TimeNs recv_end;     // Exit of that call
  TimeNs send_end;     // Exit of the call that started the send
  std::uint32_t comm;
  Peer sender;
  bool eager;   // sent with Send/Bsend/Isend below the limit: arrived on its own
  TimeNs idle;  // late-sender idle of its receive
  SendMode mode;
  MessageOrder order = MessageOrder::None;
};

// Earliest send completion among messages already seen, per source and per communicator.
// The communicator keeps its two best sources so that "a different source than s" is O(1).
class EarliestSends {
 public:
  void add(std::uint32_t comm, std::int32_t source, TimeNs send_end) {
    TimeNs& best = by_source_.try_emplace(key(comm, source), send_end).first->second;
    best = std::min(best, send_end);
    Top2& top = by_comm_[comm];
    if (source == top.first.source) {
      top.first.time = std::min(top.first.time, send_end);
    } else if (source == top.second.source) {
      top.second.time = std::min(top.second.time, send_end);
    } else if (send_end < top.second.time) {
      top.second = {send_end, source};  // the old second is now third: not needed
    }
    if (top.second.time < top.first.time) std::swap(top.first, top.second);
  }

  bool from_same_source_before(std::uint32_t comm, std::int32_t source, TimeNs t) const {
    const auto it = by_source_.find(key(comm, source));
    return it != by_source_.end() && it->second < t;
  }

  bool from_other_source_before(std::uint32_t comm, std::int32_t source, TimeNs t) const {
    const auto it = by_comm_.find(comm);
    if (it == by_comm_.end()) return false;
    const Entry& e = it->second.first.source != source ? it->second.first : it->second.second;
    return e.source != kNoWorldRank && e.time < t;
  }

 private:
  struct Entry {
    TimeNs time = std::numeric_limits<TimeNs>::max();
    std::int32_t source = kNoWorldRank;
  };
  struct Top2 {
    Entry first, second;
  };
  static std::uint64_t key(std::uint32_t comm, std::int32_t source) {
    return (static_cast<std::uint64_t>(comm) << 32) | static_cast<std::uint32_t>(source);
  }
  std::unordered_map<std::uint64_t, TimeNs> by_source_;
  std::unordered_map<std::uint32_t, Top2> by_comm_;
};

std::vector<Received> received_messages(const RuleContext& context, std::uint32_t loc) {
  const Trace& trace = context.trace;
  const Location& l = trace.locations[loc];
  std::vector<Received> out;
  for (std::uint32_t call = 0; call < l.calls(); ++call) {
    for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
      if (l.op_kind[op] != OpKind::Recv && l.op_kind[op] != OpKind::Irecv) continue;
      const Message* m = message_of(context.matching, loc, op);
      const CallView send = m == nullptr ? CallView{} : send_call(trace, *m);
      if (!send.valid()) continue;
      const SendMode mode = send_mode(trace, *m);
      const bool eager = (mode == SendMode::Standard || mode == SendMode::Buffered) &&
                         !send_waits_for_receiver(context, *m);
      out.push_back({call, l.call_leave[call], send.leave, l.op_comm[op],
                     peer_at(trace, m->send.loc), eager, late_sender_idle(trace, *m), mode});
    }
  }
  return out;
}

// Akopyan and Andreev: End(S_a) < End(S_b), End(R_b) < End(R_a) and Start(R_b) < Start(S_b).
// Sweeping the receives from the last completed to the first, every message already seen was
// received later; the waiting receive b is in wrong order when one of them was sent eagerly before
// b's send ended and before b's wait ended (so it had arrived while b waited).
void classify_order(std::vector<Received>& received) {
  std::vector<std::size_t> by_recv_end(received.size());
  std::iota(by_recv_end.begin(), by_recv_end.end(), 0);
  std::sort(by_recv_end.begin(), by_recv_end.end(), [&](std::size_t a, std::size_t b) {
    return received[a].recv_end > received[b].recv_end;
  });
  EarliestSends later_received;
  for (std::size_t i = 0; i < by_recv_end.size();) {
    std::size_t group_end = i;  // receives completed at the same time are not "later"
    while (group_end < by_recv_end.size() &&
           received[by_recv_end[group_end]].recv_end == received[by_recv_end[i]].recv_end)
      ++group_end;
    for (std::size_t j = i; j < group_end; ++j) {
      Received& b = received[by_recv_end[j]];
      if (b.idle <= 0) continue;
      const TimeNs arrived_before = std::min(b.send_end, b.recv_end);
      if (later_received.from_same_source_before(b.comm, b.sender.rank, arrived_before))
        b.order = MessageOrder::SameSource;
      else if (later_received.from_other_source_before(b.comm, b.sender.rank, arrived_before))
        b.order = MessageOrder::DifferentSource;
    }
    for (std::size_t j = i; j < group_end; ++j) {
      const Received& a = received[by_recv_end[j]];
      if (a.eager) later_received.add(a.comm, a.sender.rank, a.send_end);
    }
    i = group_end;
  }
}

// wrong_order
//   idle = min(Enter_send_b, Exit_recv_b) − Enter_recv_b    (the late-sender idle of b)
// for a receive b that waited while a message a for the same receiver and communicator, sent
// eagerly before b (End(S_a) < End(S_b)), was received after it (End(R_b) < End(R_a)).
// Split by whether a came from b's sender (same source) or another rank (different source).
// Every wrong_order wait is also a late_sender wait; this pattern names the cause.
void find_wrong_order(const RuleContext& context, InstanceSink& sink) {
  WorstWait worst;
  for (std::uint32_t loc = 0; loc < context.trace.locations.size(); ++loc) {
    std::vector<Received> received = received_messages(context, loc);
    if (std::none_of(received.begin(), received.end(),
                     [](const Received& r) { return r.idle > 0; }))
      continue;  // no receive waited: nothing can be in wrong order
    classify_order(received);
    for (std::size_t i = 0; i < received.size(); ++i) {
      const Received& r = received[i];
      if (r.order != MessageOrder::None)
        worst.add(r.idle, r.sender, {.send_mode = r.mode, .order = r.order});
      if (i + 1 == received.size() || received[i + 1].call != r.call)
        worst.flush(kWrongOrder, loc, r.call, sink);
    }
  }
}

}  // namespace

const Pattern kWrongOrder{
    .id = "wrong_order",
    .parent = "late_sender",
    .description =
        "A receive waited for a late message while a message sent earlier to the same rank had "
        "already arrived and was received later.",
    .formula = "min(Enter_send, Exit_recv) − Enter_recv of the late receive",
    .peer_role = "awaited sender",
    .recommendation =
        "Receive messages in the order they are sent (or post all receives with MPI_Irecv and "
        "complete them with MPI_Waitany/MPI_Waitsome) so that messages that have arrived are "
        "handled while the late one is still on its way.",
    .find = find_wrong_order,
};

}  // namespace collwrap
