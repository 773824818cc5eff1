#include "clock_repair.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "collective_dependency.h"
#include "group_by_key.h"
#include "parallel_for.h"

namespace collwrap {
namespace {

constexpr TimeNs kEarliest = std::numeric_limits<TimeNs>::min();
constexpr TimeNs kLatest = std::numeric_limits<TimeNs>::max();

// One location's events as one sequence: per call its Enter, its ops, its Leave. Positions
// follow from call_first_op, so no table is needed to find an op's or a call's place.
std::uint32_t enter_position(const Location& l, std::uint32_t call) {
  return 2 * call + l.call_first_op[call];
}
// Every op belongs to a call: the reader drops MPI records outside any call.
std::uint32_t op_position(const Location& l, std::uint32_t op) {
  return 2 * l.op_call[op] + 1 + op;
}
std::uint32_t leave_position(const Location& l, std::uint32_t call) {
  return 2 * call + 1 + l.call_first_op[call + 1];
}

struct EventRef {
  std::uint32_t loc = kNone;
  std::uint32_t pos = kNone;
};

// A message: the receive completes no earlier than the send started plus the latency.
struct MessageEdge {
  EventRef send, recv;
  TimeNs latency;
};

// A collective member: the entry into the call that started it, the exit from the call that
// completed it.
struct Member {
  EventRef enter, exit;
};

// Members [first, first + count) of `members`, in rank-in-communicator order.
struct Instance {
  CollFamily family;
  std::uint32_t first, count;
  std::uint32_t root = kNone;                   // index among the members
  TimeNs latency;                               // between nodes if the members span several nodes
  const NeighborLists* in_neighbors = nullptr;  // the communicator's (neighborhood collectives)
};

// Per-location values over the flat event sequence.
using Grid = std::vector<std::vector<TimeNs>>;

// Visits a location's event times in sequence order (enter_position, op_position,
// leave_position).
template <typename L, typename Visit>
void for_each_event_time(L& l, Visit&& visit) {
  for (std::uint32_t c = 0; c < l.calls(); ++c) {
    visit(l.call_enter[c]);
    for (std::uint32_t op = l.call_first_op[c]; op < l.call_first_op[c + 1]; ++op)
      visit(l.op_time[op]);
    visit(l.call_leave[c]);
  }
}

// The same, last event first.
template <typename L, typename Visit>
void for_each_event_time_backwards(L& l, Visit&& visit) {
  for (std::uint32_t c = static_cast<std::uint32_t>(l.calls()); c-- > 0;) {
    visit(l.call_leave[c]);
    for (std::uint32_t op = l.call_first_op[c + 1]; op-- > l.call_first_op[c];)
      visit(l.op_time[op]);
    visit(l.call_enter[c]);
  }
}

// The repair works on its own copy of the times and leaves the trace as read until
// write_back: the trace's times are the original ones the passes need, so no further copy of
// them is kept (8 bytes per event less at the analyzer's peak).
class ClockCondition {
 public:
  ClockCondition(const Trace& trace, const Matching& m, const ClockRepairOptions& o,
                 unsigned threads) {
    current_.resize(trace.locations.size());
    parallel_for(trace.locations.size(), threads, [&](std::size_t li) {
      const Location& l = trace.locations[li];
      std::vector<TimeNs>& times = current_[li];
      times.reserve(2 * l.calls() + l.ops());
      for_each_event_time(l, [&](TimeNs t) { times.push_back(t); });
    });
    const auto latency = [&](std::uint32_t a, std::uint32_t b) {
      return trace.locations[a].node == trace.locations[b].node ? o.latency_same_node
                                                                : o.latency_between_nodes;
    };
    std::vector<MessageEdge> messages;
    messages.reserve(m.messages.size());
    for (const Message& msg : m.messages) {
      if (!msg.send.valid() || !msg.recv.valid()) continue;
      const Location& s = trace.locations[msg.send.loc];
      const Location& r = trace.locations[msg.recv.loc];
      messages.push_back({{msg.send.loc, op_position(s, msg.send.op)},
                          {msg.recv.loc, op_position(r, msg.recv.op)},
                          latency(msg.send.loc, msg.recv.loc)});
    }
    // Grouped by receiving location, with an index by sending location: a bound is set on the
    // receive (lower bounds) or on the send (upper bounds), so the locations' bounds can be
    // set side by side, each from its own group. A group is one location's, so it is never
    // mixed and no time orders it.
    const std::size_t locations = trace.locations.size();
    const auto no_time = [](const MessageEdge&) { return TimeNs{0}; };
    const auto receiver = [](const MessageEdge& e) { return e.recv.loc; };
    const auto sender = [](const MessageEdge& e) { return e.send.loc; };
    const KeyGroups by_receiver = group_by_key(messages, locations, receiver, receiver, no_time);
    messages_.reserve(messages.size());
    for (const std::uint32_t i : by_receiver.index) messages_.push_back(messages[i]);
    recv_first_ = by_receiver.start;
    messages = {};
    by_sender_ = group_by_key(messages_, locations, sender, sender, no_time);
    for (const CollectiveInstance& c : m.collectives) add_collective(trace, m, c, o);
  }

  std::size_t locations() const { return current_.size(); }
  std::size_t size(std::size_t loc) const { return current_[loc].size(); }
  TimeNs time(std::size_t loc, std::size_t pos) const { return current_[loc][pos]; }
  void set(std::size_t loc, std::size_t pos, TimeNs t) { current_[loc][pos] = t; }
  const std::vector<TimeNs>& times(std::size_t loc) const { return current_[loc]; }

  // Moves the trace's times to the repaired ones.
  void write_back(Trace& trace, unsigned threads) const {
    parallel_for(current_.size(), threads, [&](std::size_t li) {
      const TimeNs* t = current_[li].data();
      for_each_event_time(trace.locations[li], [&](TimeNs& event) { event = *t++; });
    });
  }

  // The earliest time each receive and collective exit may have (kEarliest for other
  // events), from the current times. Returns the violations of the current times, counted as
  // MatchCounts::clock_violations counts them (without latency).
  std::uint64_t lower_bounds(Grid& lower, unsigned threads) const {
    reset(lower, kEarliest, threads);
    std::vector<std::uint64_t> violations(locations(), 0);
    parallel_for(locations(), threads, [&](std::size_t loc) {
      for (std::uint32_t i = recv_first_[loc]; i < recv_first_[loc + 1]; ++i) {
        const MessageEdge& e = messages_[i];
        const TimeNs send = at(e.send);
        violations[loc] += at(e.recv) < send;
        raise(lower, e.recv, send + e.latency);
      }
    });
    std::uint64_t total = 0;
    for (const std::uint64_t v : violations) total += v;
    for (const Instance& inst : instances_) total += collective_bounds(inst, lower);
    return total;
  }

  // The latest time each send and collective entry may have (kLatest for other events), so
  // that its receives and dependent exits keep their latency.
  void upper_bounds(Grid& upper, unsigned threads) const {
    reset(upper, kLatest, threads);
    parallel_for(locations(), threads, [&](std::size_t loc) {
      for (std::uint32_t i = 0; i < by_sender_.size(loc); ++i) {
        const MessageEdge& e = messages_[by_sender_.at(loc, i)];
        lower(upper, e.send, at(e.recv) - e.latency);
      }
    });
    for (const Instance& inst : instances_) collective_caps(inst, upper);
  }

 private:
  void add_collective(const Trace& trace, const Matching& m, const CollectiveInstance& c,
                      const ClockRepairOptions& o) {
    if (c.family == CollFamily::Other) return;
    bool moves_data = false, several_nodes = false;
    Instance inst{c.family,
                  static_cast<std::uint32_t>(members_.size()),
                  0,
                  kNone,
                  o.latency_same_node,
                  &trace.comms[c.comm].in_neighbors};
    for (std::uint32_t i = 0; i < c.member_count; ++i) {
      const OpRef member = m.members[c.first_member + i];
      const OpRef start = m.starts[c.first_member + i];
      const Location& l = trace.locations[member.loc];
      const std::uint32_t first_call = l.op_call[start.valid() ? start.op : member.op];
      members_.push_back({{member.loc, enter_position(l, first_call)},
                          {member.loc, leave_position(l, l.op_call[member.op])}});
      moves_data |= l.bytes_sent(member.op) > 0 || l.bytes_received(member.op) > 0;
      several_nodes |= l.node != trace.locations[m.members[c.first_member].loc].node;
      if (l.rank == c.root) inst.root = i;
    }
    inst.count = c.member_count;
    if (several_nodes) inst.latency = o.latency_between_nodes;
    // Caps and bounds both follow the condition the sync modes leave (collective_dependency.h).
    const OpRef head = m.members[c.first_member];
    inst.family = clock_dependency_family(c.family, moves_data,
                                          upc_sync_of(trace.locations[head.loc], head.op));
    if (inst.family == CollFamily::Other) {
      members_.resize(inst.first);
      return;
    }
    instances_.push_back(inst);
  }

  // Who must have entered before whom may leave (collective_dependency.h).
  std::uint64_t collective_bounds(const Instance& inst, Grid& lower) const {
    const Member* m = &members_[inst.first];
    std::uint64_t violations = 0;
    for_each_collective_dependency(
        inst.family, inst.count, inst.root, inst.in_neighbors,
        [&](std::uint32_t i) { return at(m[i].enter); },
        [&](std::uint32_t i, TimeNs entered) {
          violations += at(m[i].exit) < entered;
          raise(lower, m[i].exit, entered + inst.latency);
        });
    return violations;
  }

  void collective_caps(const Instance& inst, Grid& upper) const {
    const Member* m = &members_[inst.first];
    const auto cap = [&](const Member& member, TimeNs exited) {
      lower(upper, member.enter, exited - inst.latency);
    };
    TimeNs first_exit = kLatest;
    for (std::uint32_t i = inst.count; i-- > 0;) {
      first_exit = std::min(first_exit, at(m[i].exit));
      if (inst.family == CollFamily::Prefix) cap(m[i], first_exit);
    }
    switch (inst.family) {
      case CollFamily::Barrier:
      case CollFamily::NxN:
        for (std::uint32_t i = 0; i < inst.count; ++i) cap(m[i], first_exit);
        break;
      case CollFamily::OneToN: {
        if (inst.root == kNone) break;
        TimeNs non_root_exit = kLatest;
        for (std::uint32_t i = 0; i < inst.count; ++i)
          if (i != inst.root) non_root_exit = std::min(non_root_exit, at(m[i].exit));
        cap(m[inst.root], non_root_exit);
        break;
      }
      case CollFamily::NToOne:
        if (inst.root == kNone) break;
        for (std::uint32_t i = 0; i < inst.count; ++i) cap(m[i], at(m[inst.root].exit));
        break;
      case CollFamily::Neighbor:
        // An in-neighbor must have entered before each member it sends to has left.
        if (inst.in_neighbors->size() != inst.count) break;
        for (std::uint32_t i = 0; i < inst.count; ++i)
          for (const std::uint32_t j : (*inst.in_neighbors)[i])
            if (j < inst.count) cap(m[j], at(m[i].exit));
        break;
      case CollFamily::Prefix:
      case CollFamily::Fence:
      case CollFamily::WindowCreate:
      case CollFamily::WindowFree:
      case CollFamily::Other:
        break;
    }
  }

  TimeNs at(EventRef e) const { return current_[e.loc][e.pos]; }
  static void raise(Grid& g, EventRef e, TimeNs t) {
    g[e.loc][e.pos] = std::max(g[e.loc][e.pos], t);
  }
  static void lower(Grid& g, EventRef e, TimeNs t) {
    g[e.loc][e.pos] = std::min(g[e.loc][e.pos], t);
  }
  void reset(Grid& g, TimeNs value, unsigned threads) const {
    g.resize(current_.size());
    parallel_for(current_.size(), threads,
                 [&](std::size_t li) { g[li].assign(current_[li].size(), value); });
  }

  Grid current_;
  std::vector<MessageEdge> messages_;      // grouped by receiving location
  std::vector<std::uint32_t> recv_first_;  // by location: its first message in messages_
  KeyGroups by_sender_;                    // messages_ indexes grouped by sending location
  std::vector<Member> members_;
  std::vector<Instance> instances_;
};

// γ of pass `pass` (0-based): 0.99999, 0.9999, 0.999, then ×0.9 per pass.
double gamma_of_pass(unsigned pass) {
  constexpr double kFirst[] = {0.99999, 0.9999, 0.999};
  if (pass < 3) return kFirst[pass];
  return kFirst[2] * std::pow(0.9, pass - 2);
}

// Forward pass over one location: `before` holds its times at the start of the pass (it may
// be the repair's own copy: each time is read before it is written), `original` the location
// as read; writes the moved times.
void forward(ClockCondition& cc, std::size_t loc, const std::vector<TimeNs>& before,
             const Location& original, const std::vector<TimeNs>& lower, double gamma,
             const ClockRepairOptions& o) {
  TimeNs previous = kEarliest, previous_original = 0;
  std::size_t i = 0;
  for_each_event_time(original, [&](TimeNs original_time) {
    TimeNs t = std::max(before[i], lower[i]);
    if (i > 0) {
      const TimeNs interval = original_time - previous_original;
      t = std::max({t, previous + std::min(o.min_event_gap, interval),
                    previous + static_cast<TimeNs>(gamma * static_cast<double>(interval))});
    }
    cc.set(loc, i++, t);
    previous = t;
    previous_original = original_time;
  });
}

// Backward amortization over one location: an event is moved at least as far as the next one
// minus a slope times their interval, but a send or entry no further than its cap.
// `before_backwards(visit)` visits the location's times at the start of the pass, last first.
template <typename BeforeBackwards>
void backward(ClockCondition& cc, std::size_t loc, BeforeBackwards&& before_backwards,
              const std::vector<TimeNs>& upper, const ClockRepairOptions& o) {
  std::size_t i = cc.size(loc);
  TimeNs next_before = 0, next_shift = 0;
  before_backwards([&](TimeNs before) {
    if (i-- == cc.size(loc)) {  // the last event keeps its forward shift
      next_shift = cc.time(loc, i) - before;
      next_before = before;
      return;
    }
    const TimeNs forward_shift = cc.time(loc, i) - before;
    const auto slack =
        static_cast<TimeNs>(o.amortization_slope * static_cast<double>(next_before - before));
    TimeNs amortized = next_shift - slack;
    if (upper[i] != kLatest) amortized = std::min(amortized, upper[i] - before);
    next_shift = std::max(forward_shift, amortized);
    cc.set(loc, i, before + next_shift);
    next_before = before;
  });
}

}  // namespace

ClockRepairReport repair_clocks(Trace& trace, const Matching& matching,
                                const ClockRepairOptions& options, unsigned threads) {
  // The matcher has counted the violations with the same definition; without any, the
  // per-event tables (24 bytes per event) are not worth building.
  if (matching.counts.clock_violations == 0) {
    trace.clock.violations_before_repair = trace.clock.violations_after_repair = 0;
    trace.clock.max_repair_shift_s = 0;
    return {};
  }
  ClockCondition cc(trace, matching, options, threads);
  // The lower bounds serve the forward pass, the upper ones the backward pass after it:
  // one grid holds either. The times at the start of a pass are the trace's own in the first
  // pass, the only one most repairs need; later passes keep a copy (8 bytes per event).
  Grid bounds, before(cc.locations());

  ClockRepairReport report;
  report.violations_before = report.violations_after = cc.lower_bounds(bounds, threads);
  while (report.violations_after > 0 && report.passes < options.max_passes) {
    const bool first = report.passes == 0;
    const double gamma = gamma_of_pass(report.passes++);
    // Each location's pass reads and writes only that location's times.
    parallel_for(cc.locations(), threads, [&](std::size_t li) {
      if (!first) before[li] = cc.times(li);
      forward(cc, li, first ? cc.times(li) : before[li], trace.locations[li], bounds[li], gamma,
              options);
    });
    cc.upper_bounds(bounds, threads);
    parallel_for(cc.locations(), threads, [&](std::size_t li) {
      if (first)
        backward(
            cc, li,
            [&](auto visit) { for_each_event_time_backwards(trace.locations[li], visit); },
            bounds[li], options);
      else
        backward(
            cc, li,
            [&](auto visit) {
              for (auto t = before[li].rbegin(); t != before[li].rend(); ++t) visit(*t);
            },
            bounds[li], options);
    });
    report.violations_after = cc.lower_bounds(bounds, threads);
  }
  bounds = {};
  before = {};

  for (std::size_t li = 0; li < cc.locations(); ++li) {
    std::size_t i = 0;
    for_each_event_time(trace.locations[li], [&](TimeNs original) {
      const TimeNs t = cc.time(li, i++);
      report.max_shift = std::max(report.max_shift, t - original);
      trace.end = std::max(trace.end, t);
    });
  }
  cc.write_back(trace, threads);
  trace.clock.violations_before_repair = report.violations_before;
  trace.clock.violations_after_repair = report.violations_after;
  trace.clock.max_repair_shift_s = static_cast<double>(report.max_shift) * 1e-9;
  return report;
}

}  // namespace collwrap
