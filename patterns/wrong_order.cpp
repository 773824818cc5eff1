// wrong_order: a late-sender wait while an earlier message for the same receiver had already
// arrived (Akopyan and Andreev, ISP RAS, "wrong order"; Scalasca's "Late Sender, Wrong Order").
#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

#include "catalog.h"
#include "message_timing.h"
#include "recent_lookups.h"
#include "worst_wait.h"

namespace collwrap {
namespace {

// One received message, seen from its receiver.
struct Received {
  TimeNs send_end;  // Exit of the call that started the send
  std::uint32_t comm;
  Peer sender;
  bool eager;   // sent with Send/Bsend/Isend below the limit: arrived on its own
  TimeNs idle;  // late-sender idle of its receive
  SendMode mode;
};

// A waiting receive that was in wrong order, with what its instance reports.
struct WrongOrderReceive {
  std::uint32_t call;  // the call that completed the receive
  std::uint32_t op;
  TimeNs idle;
  Peer sender;
  SendMode mode;
  MessageOrder order;
};

// Earliest send completion among messages already seen, per source and per communicator.
// The communicator keeps its two best sources so that "a different source than s" is O(1).
// A receiver takes its messages from a few sources on a few communicators in turn: the
// entries of the last ones looked up are kept at hand (the maps' nodes stay where they are).
class EarliestSends {
 public:
  void add(std::uint32_t comm, std::int32_t source, TimeNs send_end) {
    TimeNs& best = *recent_sources_.get(key(comm, source), [&](std::uint64_t k) {
      return &by_source_.try_emplace(k, send_end).first->second;
    });
    best = std::min(best, send_end);
    Top2& top = *recent_comms_.get(comm, [&](std::uint32_t c) { return &by_comm_[c]; });
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
    if (TimeNs* const* best = recent_sources_.peek(key(comm, source))) return **best < t;
    const auto it = by_source_.find(key(comm, source));
    return it != by_source_.end() && it->second < t;
  }

  bool from_other_source_before(std::uint32_t comm, std::int32_t source, TimeNs t) const {
    const Top2* top = nullptr;
    if (Top2* const* at_hand = recent_comms_.peek(comm)) {
      top = *at_hand;
    } else {
      const auto it = by_comm_.find(comm);
      if (it == by_comm_.end()) return false;
      top = &it->second;
    }
    const Entry& e = top->first.source != source ? top->first : top->second;
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
  RecentLookups<std::uint64_t, TimeNs*> recent_sources_;
  RecentLookups<std::uint32_t, Top2*> recent_comms_;
};

// The message a receive op (Recv or Irecv) completed, if its send is in the trace.
std::optional<Received> received_message(const RuleContext& context, std::uint32_t loc,
                                         std::uint32_t op) {
  const Trace& trace = context.trace;
  const Location& l = trace.locations[loc];
  if (l.op_kind[op] != OpKind::Recv && l.op_kind[op] != OpKind::Irecv) return std::nullopt;
  const Message* m = message_of(context.matching, loc, op);
  if (m == nullptr) return std::nullopt;
  const MessageCalls calls = message_calls(trace, *m);
  if (!calls.send.valid()) return std::nullopt;
  const SendMode mode = send_mode(calls.send);
  const bool eager = (mode == SendMode::Standard || mode == SendMode::Buffered) &&
                     !send_waits_for_receiver(mode, message_bytes(trace, *m),
                                              eager_threshold(trace, context.options, *m));
  return Received{calls.send.leave,        l.op_comm[op], peer_at(trace, m->send.loc), eager,
                  late_sender_idle(calls), mode};
}

// Akopyan and Andreev: End(S_a) < End(S_b), End(R_b) < End(R_a) and Start(R_b) < Start(S_b).
// Sweeping the receives from the last completed to the first, every message already seen was
// received later; the waiting receive b is in wrong order when one of them was sent eagerly before
// b's send ended and before b's wait ended (so it had arrived while b waited).
// A location's calls end in time order (the reader and the clock repair keep its timestamps from
// going backwards), so the sweep walks the calls backwards and holds only the receives of the
// calls that ended at the same instant: none of them was received "later" than another.
// Returns the receives in wrong order, by call and op.
std::vector<WrongOrderReceive> wrong_order_receives(const RuleContext& context, std::uint32_t loc) {
  const Trace& trace = context.trace;
  const Location& l = trace.locations[loc];
  EarliestSends later_received;
  std::vector<WrongOrderReceive> out;
  struct Pending {
    std::uint32_t call, op;
    Received r;
  };
  std::vector<Pending> same_end;
  for (std::uint32_t end = l.calls(); end > 0;) {
    std::uint32_t first = end - 1;
    while (first > 0 && l.call_leave[first - 1] == l.call_leave[end - 1]) --first;
    same_end.clear();
    for (std::uint32_t call = first; call < end; ++call)
      for (const std::uint32_t op : ops_of_call(trace, loc, call))
        if (const auto r = received_message(context, loc, op)) same_end.push_back({call, op, *r});
    const TimeNs recv_end = l.call_leave[end - 1];
    for (const Pending& b : same_end) {
      if (b.r.idle <= 0) continue;
      const TimeNs arrived_before = std::min(b.r.send_end, recv_end);
      MessageOrder order = MessageOrder::None;
      if (later_received.from_same_source_before(b.r.comm, b.r.sender.rank, arrived_before))
        order = MessageOrder::SameSource;
      else if (later_received.from_other_source_before(b.r.comm, b.r.sender.rank, arrived_before))
        order = MessageOrder::DifferentSource;
      if (order != MessageOrder::None)
        out.push_back({b.call, b.op, b.r.idle, b.r.sender, b.r.mode, order});
    }
    for (const Pending& a : same_end)
      if (a.r.eager) later_received.add(a.r.comm, a.r.sender.rank, a.r.send_end);
    end = first;
  }
  std::sort(out.begin(), out.end(), [](const WrongOrderReceive& a, const WrongOrderReceive& b) {
    return std::pair(a.call, a.op) < std::pair(b.call, b.op);
  });
  return out;
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
    const std::vector<WrongOrderReceive> receives = wrong_order_receives(context, loc);
    for (std::size_t i = 0; i < receives.size(); ++i) {
      const WrongOrderReceive& r = receives[i];
      worst.add(r.idle, r.sender, {.send_mode = r.mode, .order = r.order});
      if (i + 1 == receives.size() || receives[i + 1].call != r.call)
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
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
