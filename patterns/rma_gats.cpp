// General active target synchronization of MPI windows (Scalasca's RMA patterns, Hermanns et
// al.): an origin's MPI_Win_start or MPI_Win_complete waiting for a target's MPI_Win_post (late
// post); a target's MPI_Win_wait waiting for the last origin's MPI_Win_complete (early wait),
// part of which the origin spent after its last transfer of the epoch (late complete).
#include <algorithm>
#include <vector>

#include "catalog.h"
#include "rma_epochs.h"

namespace collwrap {
namespace {

TimeNs enter_of(const Trace& trace, std::uint32_t loc, std::uint32_t call) {
  return trace.locations[loc].call_enter[call];
}

// The partners' opening (post) or closing (complete) calls that began after `since`, latest
// first, as (Enter, world rank).
std::vector<std::pair<TimeNs, Peer>> later_partners(const Trace& trace, const RmaEpoch& epoch,
                                                    const std::vector<RmaEpoch>& side, bool closing,
                                                    TimeNs since) {
  std::vector<std::pair<TimeNs, Peer>> late;
  for (const std::uint32_t p : epoch.partners) {
    if (p == kNone) continue;
    const RmaEpoch& other = side[p];
    const TimeNs t = enter_of(trace, other.loc, closing ? other.close : other.open);
    if (t > since) late.push_back({t, peer_at(trace, other.loc)});
  }
  std::sort(late.begin(), late.end(), std::greater<>());
  return late;
}

// Reports an instance at `call` idling until the latest partner's time, peers latest first.
void report_wait_for(const Trace& trace, const Pattern& pattern, std::uint32_t loc,
                     std::uint32_t call, const std::vector<std::pair<TimeNs, Peer>>& late,
                     InstanceSink& sink) {
  if (late.empty()) return;
  const CallView waiting = call_view(trace, loc, call);
  const TimeNs idle = idle_until(late.front().first, waiting);
  if (idle <= 0) return;
  std::vector<Peer> peers;
  for (const auto& [time, peer] : late)
    if (std::find(peers.begin(), peers.end(), peer) == peers.end()) peers.push_back(peer);
  sink.add({&pattern, loc, call, idle, peers, {}});
}

// rma_late_post
//   idle = min(max_{t ∈ targets} Enter(post_t), Exit) − Enter, at MPI_Win_complete, and at
//   MPI_Win_start when it returned after that post (an MPI library may let the start return at
//   once and wait in the complete; then the start's own time is no waiting); peers: the
//   targets that posted after Enter.
void find_rma_late_post(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  const RmaEpochs epochs = rma_epochs(trace);
  for (const RmaEpoch& a : epochs.access)
    for (const std::uint32_t call : {a.open, a.close}) {
      const auto late =
          later_partners(trace, a, epochs.exposure, false, enter_of(trace, a.loc, call));
      const bool start_returned_before_post =
          call == a.open && !late.empty() &&
          trace.locations[a.loc].call_leave[call] < late.front().first;
      if (!start_returned_before_post)
        report_wait_for(trace, kRmaLatePost, a.loc, call, late, sink);
    }
}

// rma_early_wait
//   idle = min(max_{o ∈ origins} Enter(complete_o), Exit(wait)) − Enter(wait); peers: the
//   origins that entered MPI_Win_complete after the wait began.
void find_rma_early_wait(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  const RmaEpochs epochs = rma_epochs(trace);
  for (const RmaEpoch& x : epochs.exposure)
    report_wait_for(trace, kRmaEarlyWait, x.loc, x.close,
                    later_partners(trace, x, epochs.access, true, enter_of(trace, x.loc, x.close)),
                    sink);
}

// The end of the origin's last transfer on the epoch's window, or the end of MPI_Win_start.
TimeNs last_transfer_end(const Trace& trace, const RmaEpoch& a) {
  const Location& l = trace.locations[a.loc];
  TimeNs end = l.call_leave[a.open];
  for (std::uint32_t call = a.open + 1; call < a.close; ++call)
    for (const std::uint32_t op : ops_of_call(trace, a.loc, call)) {
      const OpKind kind = l.op_kind[op];
      const bool transfer =
          kind == OpKind::RmaPut || kind == OpKind::RmaGet || kind == OpKind::RmaAtomic;
      if (transfer && l.op_comm[op] == a.window) end = l.call_leave[call];
    }
  return end;
}

// rma_late_complete (part of rma_early_wait)
//   idle = min(Enter(complete_last), Exit(wait)) − max(Enter(wait), End(last transfer of the
//   last origin)); peer: the last origin to enter MPI_Win_complete.
void find_rma_late_complete(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  const RmaEpochs epochs = rma_epochs(trace);
  for (const RmaEpoch& x : epochs.exposure) {
    const RmaEpoch* last = nullptr;
    for (const std::uint32_t p : x.partners)
      if (p != kNone && (!last || enter_of(trace, epochs.access[p].loc, epochs.access[p].close) >
                                      enter_of(trace, last->loc, last->close)))
        last = &epochs.access[p];
    if (!last) continue;
    const CallView wait = call_view(trace, x.loc, x.close);
    const TimeNs complete = enter_of(trace, last->loc, last->close);
    const TimeNs idle =
        std::min(complete, wait.leave) - std::max(wait.enter, last_transfer_end(trace, *last));
    if (idle <= 0) continue;
    const Peer peer = peer_at(trace, last->loc);
    sink.add({&kRmaLateComplete, x.loc, x.close, idle, {&peer, 1}, {}});
  }
}

}  // namespace

const Pattern kRmaLatePost{
    .id = "rma_late_post",
    .description =
        "An origin's MPI_Win_start or MPI_Win_complete waited for a target to expose its window "
        "with MPI_Win_post.",
    .formula =
        "min(max_{t ∈ targets} Enter(post_t), Exit) − Enter, at MPI_Win_start only if it "
        "returned after that post",
    .peer_role = "targets that posted late",
    .recommendation =
        "Call MPI_Win_post earlier on the targets named (before their local work, right after "
        "the previous epoch), or balance the work so that they reach it in time.",
    .find = find_rma_late_post,
    .needs = {OpKind::RmaGroupSync},
    .reach = RuleReach::Partners,
};

const Pattern kRmaEarlyWait{
    .id = "rma_early_wait",
    .description =
        "A target's MPI_Win_wait waited for the last origin to close its access epoch with "
        "MPI_Win_complete.",
    .formula = "min(max_{o ∈ origins} Enter(complete_o), Exit(wait)) − Enter(wait)",
    .peer_role = "origins that completed late",
    .recommendation =
        "Move work from before MPI_Win_wait to after it, use MPI_Win_test to do work while the "
        "origins are still accessing, or balance the origins' work.",
    .find = find_rma_early_wait,
    .needs = {OpKind::RmaGroupSync},
    .reach = RuleReach::Partners,
};

const Pattern kRmaLateComplete{
    .id = "rma_late_complete",
    .parent = "rma_early_wait",
    .description =
        "Part of a target's MPI_Win_wait during which the last origin had finished its transfers "
        "but had not yet called MPI_Win_complete.",
    .formula =
        "min(Enter(complete_last), Exit(wait)) − max(Enter(wait), End(last transfer of the last "
        "origin))",
    .peer_role = "origin that completed late",
    .recommendation =
        "Call MPI_Win_complete right after the last put or get of the epoch on the origin named, "
        "and do its other work after it.",
    .find = find_rma_late_complete,
    .needs = {OpKind::RmaGroupSync},
    .reach = RuleReach::Partners,
};

}  // namespace collwrap
