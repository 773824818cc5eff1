#include "clock_repair.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "collective_dependency.h"
#include "event_sequence.h"
#include "group_by_key.h"
#include "parallel_for.h"

namespace collwrap {
namespace {

constexpr TimeNs kEarliest = std::numeric_limits<TimeNs>::min();
constexpr TimeNs kLatest = std::numeric_limits<TimeNs>::max();

enum class Event : std::uint8_t { Enter, Op, Leave };

// Visits a location's events in sequence order (enter_position, op_position, leave_position)
// as visit(kind, index, time): the index is the call's for an Enter or a Leave, the op's for
// an op.
template <typename Visit>
void for_each_event(const Location& l, Visit&& visit) {
  for (std::uint32_t c = 0; c < l.calls(); ++c) {
    visit(Event::Enter, c, l.call_enter[c]);
    for (std::uint32_t op = l.call_first_op[c]; op < l.call_first_op[c + 1]; ++op)
      visit(Event::Op, op, l.op_time(op));
    visit(Event::Leave, c, l.call_leave[c]);
  }
}

// The same, last event first.
template <typename Visit>
void for_each_event_backwards(const Location& l, Visit&& visit) {
  for (std::uint32_t c = static_cast<std::uint32_t>(l.calls()); c-- > 0;) {
    visit(Event::Leave, c, l.call_leave[c]);
    for (std::uint32_t op = l.call_first_op[c + 1]; op-- > l.call_first_op[c];)
      visit(Event::Op, op, l.op_time(op));
    visit(Event::Enter, c, l.call_enter[c]);
  }
}

// Sets `stored` to `shift`, or returns false (leaving it) when the shift does not fit.
template <typename Shift>
bool store(Shift& stored, TimeNs shift) {
  if (!std::in_range<Shift>(shift)) return false;
  stored = static_cast<Shift>(shift);
  return true;
}

// The repaired times, kept as each event's shift from its time as read: the trace keeps the
// original times, which the passes need, until write_back. The passes only move events
// forward, and by what the archive's clock offsets left uncorrected, typically nanoseconds to
// microseconds, so a shift takes fewer bits than a time; store() says when one does not fit.
template <typename Shift>
class ShiftedTimes {
 public:
  ShiftedTimes(const Trace& trace, unsigned threads)
      : trace_(trace), shifts_(trace.locations.size()) {
    parallel_for(shifts_.size(), threads, [&](std::size_t li) {
      const Location& l = trace.locations[li];
      shifts_[li].assign(2 * l.calls() + l.ops(), 0);
    });
  }

  std::size_t locations() const { return shifts_.size(); }
  std::vector<Shift>& shifts(std::size_t loc) { return shifts_[loc]; }
  std::vector<std::vector<Shift>>& all_shifts() { return shifts_; }

  TimeNs enter(std::uint32_t loc, std::uint32_t call) const {
    const Location& l = trace_.locations[loc];
    return l.call_enter[call] + shifts_[loc][enter_position(l, call)];
  }
  TimeNs op(OpRef r) const {
    const Location& l = trace_.locations[r.loc];
    return l.op_time(r.op) + shifts_[r.loc][op_position(l, r.op)];
  }
  TimeNs leave(std::uint32_t loc, std::uint32_t call) const {
    const Location& l = trace_.locations[loc];
    return l.call_leave[call] + shifts_[loc][leave_position(l, call)];
  }

  // Moves the trace's times to the repaired ones.
  void write_back(Trace& trace, unsigned threads) const {
    parallel_for(shifts_.size(), threads, [&](std::size_t li) {
      Location& l = trace.locations[li];
      const Shift* s = shifts_[li].data();
      std::vector<TimeNs> op_times;  // of one call, as read
      for (std::uint32_t c = 0; c < l.calls(); ++c) {
        // An op's time is kept as an offset from its call's Enter: read before the Enter moves.
        const std::uint32_t first = l.call_first_op[c], last = l.call_first_op[c + 1];
        op_times.clear();
        for (std::uint32_t op = first; op < last; ++op) op_times.push_back(l.op_time(op));
        l.call_enter[c] += *s++;
        for (std::uint32_t op = first; op < last; ++op)
          l.set_op_time(op, op_times[op - first] + *s++);
        l.call_leave[c] += *s++;
      }
    });
  }

 private:
  const Trace& trace_;
  std::vector<std::vector<Shift>> shifts_;
};

// The clock condition as bounds on single events: a receive completes no earlier than its send
// started plus the minimal latency, a collective member leaves no earlier than the latest entry
// it depends on plus the latency. The forward pass needs the lower bounds on receives and
// exits, the backward pass the upper bounds on sends and entries that keep them; either is
// computed from the times at the start of its pass, so a location's pass never reads a time
// another thread is writing. They are kept per message and per collective member (8 bytes
// each), not per event: one value serves both passes (a message's bound on its receive, then
// on its send), and the passes find them as they walk a location's events, a message through
// Matching::message_of_op, a member through the location's members ordered by exit and by
// entry (4 bytes each).
class Bounds {
 public:
  // `counted`: the locations whose violations count (a process's own, in a job).
  Bounds(const Trace& trace, const Matching& m, const ClockRepairOptions& o, unsigned threads,
         const LocationRange& counted)
      : trace_(trace),
        m_(m),
        o_(o),
        counted_(counted),
        message_bound_(m.messages.size()),
        member_bound_(m.members.size()) {
    const auto location = [](const OpRef& r) { return r.loc; };
    const auto no_time = [](const OpRef&) { return TimeNs{0}; };
    by_exit_ = group_by_key(m.members, trace.locations.size(), location, location, no_time);
    by_entry_ = by_exit_.index;
    // A nonblocking collective completes after calls that started or completed others, so the
    // collectives' order need not be a location's order of exits or of entries. Mostly it is
    // (blocking collectives on one communicator), which is checked first, in linear time.
    const auto sort = [](auto first, auto last, auto call_of) {
      const auto earlier = [&](std::uint32_t a, std::uint32_t b) {
        return call_of(a) < call_of(b);
      };
      if (!std::is_sorted(first, last, earlier)) std::sort(first, last, earlier);
    };
    parallel_for(trace.locations.size(), threads, [&](std::size_t loc) {
      const std::uint32_t first = by_exit_.start[loc], end = by_exit_.start[loc + 1];
      sort(by_exit_.index.begin() + first, by_exit_.index.begin() + end,
           [&](std::uint32_t k) { return exit_call(k); });
      sort(by_entry_.begin() + first, by_entry_.begin() + end,
           [&](std::uint32_t k) { return entry_call(k); });
    });
    family_.resize(m.collectives.size());
    for_instance_ranges(threads, [&](std::size_t, std::uint32_t first, std::uint32_t end) {
      for (std::uint32_t c = first; c < end; ++c) family_[c] = clock_family(m.collectives[c]);
    });
  }

  // The earliest time each receive and collective exit may have, from `times`. Returns the
  // violations of `times`, counted as MatchCounts::clock_violations counts them (without
  // latency).
  template <typename Times>
  std::uint64_t lower_bounds(const Times& times, unsigned threads) {
    // Counted in a local per location or range of instances, each written once: neighbours
    // in one table, written at every message by threads side by side, made the repair's last
    // steps take three to four times as long on two threads as on one.
    std::vector<std::uint64_t> violations(times.locations(), 0);
    parallel_for(times.locations(), threads, [&](std::size_t li) {
      const auto loc = static_cast<std::uint32_t>(li);
      const bool counted = counted_.contains(loc);
      std::uint64_t found = 0;
      for_each_message(loc, [&](std::uint32_t op, std::uint32_t k) {
        const Message& msg = m_.messages[k];
        if (msg.recv != OpRef{loc, op}) return;
        const TimeNs send = times.op(msg.send);
        found += counted && times.op(msg.recv) < send;
        message_bound_[k] = send + latency(msg.send.loc, loc);
      });
      violations[loc] = found;
    });
    std::fill(member_bound_.begin(), member_bound_.end(), kEarliest);
    // An instance writes only its own members' bounds.
    std::vector<std::uint64_t> in_collectives(instance_ranges(), 0);
    for_instance_ranges(threads, [&](std::size_t range, std::uint32_t first, std::uint32_t end) {
      std::uint64_t found = 0;
      for (std::uint32_t c = first; c < end; ++c) found += collective_bounds(times, c);
      in_collectives[range] = found;
    });
    std::uint64_t total = 0;
    for (const std::uint64_t v : violations) total += v;
    for (const std::uint64_t v : in_collectives) total += v;
    return total;
  }

  // The latest time each send and collective entry may have, so that its receives and
  // dependent exits at `times` keep their latency.
  template <typename Times>
  void upper_bounds(const Times& times, unsigned threads) {
    parallel_for(times.locations(), threads, [&](std::size_t li) {
      const auto loc = static_cast<std::uint32_t>(li);
      for_each_message(loc, [&](std::uint32_t op, std::uint32_t k) {
        const Message& msg = m_.messages[k];
        if (msg.send == OpRef{loc, op})
          message_bound_[k] = times.op(msg.recv) - latency(loc, msg.recv.loc);
      });
    });
    std::fill(member_bound_.begin(), member_bound_.end(), kLatest);
    for_instance_ranges(threads, [&](std::size_t, std::uint32_t first, std::uint32_t end) {
      for (std::uint32_t c = first; c < end; ++c) collective_caps(times, c);
    });
  }

  // Where a location's forward pass starts in its members by exit, and its backward pass in
  // its members by entry.
  std::uint32_t first_exit(std::size_t loc) const { return by_exit_.start[loc]; }
  std::uint32_t entries_end(std::size_t loc) const { return by_exit_.start[loc + 1]; }

  // The lower bound on event (kind, index) of `loc`, or kEarliest, for a forward pass that
  // visits the location's events in order: `next` is its place in the members by exit.
  TimeNs lower_bound(std::uint32_t loc, Event kind, std::uint32_t index,
                     std::uint32_t& next) const {
    if (kind == Event::Op) {
      const std::uint32_t k = message_of(loc, index);
      return k != kNone && m_.messages[k].recv == OpRef{loc, index} ? message_bound_[k] : kEarliest;
    }
    TimeNs bound = kEarliest;
    // One call may complete several nonblocking collectives (MPI_Waitall).
    if (kind == Event::Leave)
      for (; next < by_exit_.start[loc + 1] && exit_call(by_exit_.index[next]) == index; ++next)
        bound = std::max(bound, member_bound_[by_exit_.index[next]]);
    return bound;
  }

  // The upper bound on event (kind, index) of `loc`, or kLatest, for a backward pass that
  // visits the location's events last first: `end` is its place in the members by entry.
  TimeNs upper_bound(std::uint32_t loc, Event kind, std::uint32_t index, std::uint32_t& end) const {
    if (kind == Event::Op) {
      const std::uint32_t k = message_of(loc, index);
      return k != kNone && m_.messages[k].send == OpRef{loc, index} ? message_bound_[k] : kLatest;
    }
    TimeNs bound = kLatest;
    if (kind == Event::Enter)
      for (; end > by_exit_.start[loc] && entry_call(by_entry_[end - 1]) == index; --end)
        bound = std::min(bound, member_bound_[by_entry_[end - 1]]);
    return bound;
  }

 private:
  // The collective instances in ranges of kInstancesPerRange, side by side on `threads`
  // threads: visit(range, first, end) for each range of instances [first, end).
  static constexpr std::size_t kInstancesPerRange = 4096;
  std::size_t instance_ranges() const {
    return range_count(m_.collectives.size(), kInstancesPerRange);
  }
  template <typename Visit>
  void for_instance_ranges(unsigned threads, Visit&& visit) const {
    parallel_for_ranges(m_.collectives.size(), kInstancesPerRange, threads,
                        [&](std::size_t range, std::size_t first, std::size_t end) {
                          visit(range, static_cast<std::uint32_t>(first),
                                static_cast<std::uint32_t>(end));
                        });
  }

  // The family whose dependencies instance c's clock condition follows
  // (collective_dependency.h), CollFamily::Other for none. Caps and bounds both follow it.
  CollFamily clock_family(const CollectiveInstance& c) const {
    if (c.family == CollFamily::Other) return CollFamily::Other;
    bool moves_data = false;
    for (std::uint32_t i = 0; i < c.member_count; ++i) {
      const OpRef member = m_.members[c.first_member + i];
      const Location& l = trace_.locations[member.loc];
      moves_data |= l.bytes_sent(member.op) > 0 || l.bytes_received(member.op) > 0;
    }
    const OpRef head = m_.members[c.first_member];
    return clock_dependency_family(c.family, moves_data,
                                   upc_sync_of(trace_.locations[head.loc], head.op));
  }

  // The rest of an instance's clock condition, found anew on each use from its members rather
  // than kept for every instance (only the family is: finding it reads their byte counts).
  struct Instance {
    CollFamily family;
    std::uint32_t root = kNone;                   // index among the members
    TimeNs latency = 0;                           // between nodes if the members span several nodes
    const NeighborLists* in_neighbors = nullptr;  // the communicator's (neighborhood collectives)
  };

  Instance instance(std::uint32_t index) const {
    Instance inst{family_[index]};
    if (inst.family == CollFamily::Other) return inst;
    const CollectiveInstance& c = m_.collectives[index];
    const std::uint32_t head_node = trace_.locations[m_.members[c.first_member].loc].node;
    bool several_nodes = false;
    for (std::uint32_t i = 0; i < c.member_count; ++i) {
      const Location& l = trace_.locations[m_.members[c.first_member + i].loc];
      several_nodes |= l.node != head_node;
      if (l.rank == c.root) inst.root = i;
    }
    inst.latency = several_nodes ? o_.latency_between_nodes : o_.latency_same_node;
    inst.in_neighbors = &trace_.comms[c.comm].in_neighbors;
    return inst;
  }

  // Who must have entered before whom may leave.
  template <typename Times>
  std::uint64_t collective_bounds(const Times& times, std::uint32_t c) {
    const Instance inst = instance(c);
    const std::uint32_t first = m_.collectives[c].first_member;
    std::uint64_t violations = 0;
    for_each_collective_dependency(
        inst.family, m_.collectives[c].member_count, inst.root, inst.in_neighbors,
        [&](std::uint32_t i) { return entered(times, first + i); },
        [&](std::uint32_t i, TimeNs entry) {
          violations +=
              counted_.contains(m_.members[first + i].loc) && exited(times, first + i) < entry;
          TimeNs& bound = member_bound_[first + i];
          bound = std::max(bound, entry + inst.latency);
        });
    return violations;
  }

  template <typename Times>
  void collective_caps(const Times& times, std::uint32_t c) {
    const Instance inst = instance(c);
    if (inst.family == CollFamily::Other) return;
    const std::uint32_t first = m_.collectives[c].first_member;
    const std::uint32_t count = m_.collectives[c].member_count;
    const auto exit = [&](std::uint32_t i) { return exited(times, first + i); };
    const auto cap = [&](std::uint32_t i, TimeNs exit_time) {
      TimeNs& bound = member_bound_[first + i];
      bound = std::min(bound, exit_time - inst.latency);
    };
    TimeNs first_exit = kLatest;
    for (std::uint32_t i = count; i-- > 0;) {
      first_exit = std::min(first_exit, exit(i));
      if (inst.family == CollFamily::Prefix) cap(i, first_exit);
    }
    switch (inst.family) {
      case CollFamily::Barrier:
      case CollFamily::NxN:
        for (std::uint32_t i = 0; i < count; ++i) cap(i, first_exit);
        break;
      case CollFamily::OneToN: {
        if (inst.root == kNone) break;
        TimeNs non_root_exit = kLatest;
        for (std::uint32_t i = 0; i < count; ++i)
          if (i != inst.root) non_root_exit = std::min(non_root_exit, exit(i));
        cap(inst.root, non_root_exit);
        break;
      }
      case CollFamily::NToOne:
        if (inst.root == kNone) break;
        for (std::uint32_t i = 0; i < count; ++i) cap(i, exit(inst.root));
        break;
      case CollFamily::Neighbor:
        // An in-neighbor must have entered before each member it sends to has left.
        if (inst.in_neighbors->size() != count) break;
        for (std::uint32_t i = 0; i < count; ++i)
          for (const std::uint32_t j : (*inst.in_neighbors)[i])
            if (j < count) cap(j, exit(i));
        break;
      case CollFamily::Prefix:
      case CollFamily::Fence:
      case CollFamily::WindowCreate:
      case CollFamily::WindowFree:
      case CollFamily::Other:
        break;
    }
  }

  // The call that started member k (its entry) and the one that completed it (its exit).
  std::uint32_t entry_call(std::uint32_t k) const {
    const OpRef member = m_.members[k], start = m_.starts[k];
    return trace_.locations[member.loc].op_call[start.valid() ? start.op : member.op];
  }
  std::uint32_t exit_call(std::uint32_t k) const {
    const OpRef member = m_.members[k];
    return trace_.locations[member.loc].op_call[member.op];
  }
  template <typename Times>
  TimeNs entered(const Times& times, std::uint32_t k) const {
    return times.enter(m_.members[k].loc, entry_call(k));
  }
  template <typename Times>
  TimeNs exited(const Times& times, std::uint32_t k) const {
    return times.leave(m_.members[k].loc, exit_call(k));
  }

  TimeNs latency(std::uint32_t a, std::uint32_t b) const {
    return trace_.locations[a].node == trace_.locations[b].node ? o_.latency_same_node
                                                                : o_.latency_between_nodes;
  }
  std::uint32_t message_of(std::uint32_t loc, std::uint32_t op) const {
    if (loc >= m_.message_of_op.size() || op >= m_.message_of_op[loc].size()) return kNone;
    return m_.message_of_op[loc][op];
  }
  // Calls visit(op, message) for each op of `loc` that sent or received a message.
  template <typename Visit>
  void for_each_message(std::uint32_t loc, Visit&& visit) const {
    if (loc >= m_.message_of_op.size()) return;
    const std::vector<std::uint32_t>& messages = m_.message_of_op[loc];
    for (std::uint32_t op = 0; op < messages.size(); ++op)
      if (messages[op] != kNone) visit(op, messages[op]);
  }

  const Trace& trace_;
  const Matching& m_;
  const ClockRepairOptions& o_;
  LocationRange counted_;
  std::vector<TimeNs> message_bound_;    // per message: on its receive, then on its send
  std::vector<TimeNs> member_bound_;     // per member: on its exit, then on its entry
  KeyGroups by_exit_;                    // members by location, each in the order of exits
  std::vector<std::uint32_t> by_entry_;  // the same by order of entries (by_exit_.start)
  std::vector<CollFamily> family_;       // per instance: clock_family
};

// γ of pass `pass` (0-based): 0.99999, 0.9999, 0.999, then ×0.9 per pass.
double gamma_of_pass(unsigned pass) {
  constexpr double kFirst[] = {0.99999, 0.9999, 0.999};
  if (pass < 3) return kFirst[pass];
  return kFirst[2] * std::pow(0.9, pass - 2);
}

// Forward pass over one location, moving its times in place (each is read before it is
// written); `original` is the location as read. False if a shift does not fit.
template <typename Shift>
bool forward(ShiftedTimes<Shift>& times, std::uint32_t loc, const Location& original,
             const Bounds& bounds, double gamma, const ClockRepairOptions& o) {
  std::vector<Shift>& shift = times.shifts(loc);
  std::uint32_t next_exit = bounds.first_exit(loc);
  TimeNs previous = kEarliest, previous_original = 0;
  std::size_t i = 0;
  bool fits = true;
  for_each_event(original, [&](Event kind, std::uint32_t index, TimeNs original_time) {
    TimeNs t = std::max(original_time + shift[i], bounds.lower_bound(loc, kind, index, next_exit));
    if (i > 0) {
      const TimeNs interval = original_time - previous_original;
      t = std::max({t, previous + std::min(o.min_event_gap, interval),
                    previous + static_cast<TimeNs>(gamma * static_cast<double>(interval))});
    }
    fits &= store(shift[i++], t - original_time);
    previous = t;
    previous_original = original_time;
  });
  return fits;
}

// Backward amortization over one location: an event is moved at least as far as the next one
// minus a slope times their interval, but a send or entry no further than its cap. `before`
// holds the location's shifts at the start of the pass, or is empty for none (the first pass).
// False if a shift does not fit.
template <typename Shift>
bool backward(ShiftedTimes<Shift>& times, std::uint32_t loc, const Location& original,
              const std::vector<Shift>& before, const Bounds& bounds, const ClockRepairOptions& o) {
  std::vector<Shift>& shift = times.shifts(loc);
  std::uint32_t entries_end = bounds.entries_end(loc);
  std::size_t i = shift.size();
  TimeNs next_before = 0, next_shift = 0;
  bool fits = true;
  for_each_event_backwards(original, [&](Event kind, std::uint32_t index, TimeNs original_time) {
    const TimeNs upper = bounds.upper_bound(loc, kind, index, entries_end);
    --i;
    const TimeNs before_time = original_time + (before.empty() ? 0 : before[i]);
    const TimeNs forward_shift = original_time + shift[i] - before_time;
    if (i + 1 == shift.size()) {  // the last event keeps its forward shift
      next_shift = forward_shift;
      next_before = before_time;
      return;
    }
    const auto slack =
        static_cast<TimeNs>(o.amortization_slope * static_cast<double>(next_before - before_time));
    TimeNs amortized = next_shift - slack;
    if (upper != kLatest) amortized = std::min(amortized, upper - before_time);
    next_shift = std::max(forward_shift, amortized);
    fits &= store(shift[i], before_time + next_shift - original_time);
    next_before = before_time;
  });
  return fits;
}

// The job's figures from this process's (or the figures themselves, alone).
class Totals {
 public:
  explicit Totals(ClockRepairShares* shares) : shares_(shares) {}
  std::uint64_t sum(std::uint64_t v) const { return shares_ ? shares_->sum(v) : v; }
  TimeNs max(TimeNs v) const { return shares_ ? shares_->max(v) : v; }
  bool all(bool v) const { return shares_ ? shares_->all(v) : v; }
  // The ghosts' shifts from their holders.
  template <typename Shift>
  void share(ShiftedTimes<Shift>& times) const {
    if (shares_) shares_->share(times.all_shifts());
  }

 private:
  ClockRepairShares* shares_;
};

// The repair with shifts of type `Shift`, or nothing if one does not fit (the trace is then
// left as it was). Only the `held` locations are repaired; the others get their shifts from
// `job` (Totals::share).
template <typename Shift>
std::optional<ClockRepairReport> repair_with(Trace& trace, Bounds& bounds,
                                             const ClockRepairOptions& options, unsigned threads,
                                             const LocationRange& held, const Totals& job) {
  ShiftedTimes<Shift> times(trace, threads);
  // The shifts at the start of a pass, which the backward pass needs beside the forward
  // pass's: none in the first pass, the only one most repairs need; a copy in later ones.
  std::vector<std::vector<Shift>> before(times.locations());
  std::atomic<bool> fits = true;

  ClockRepairReport report;
  report.violations_before = report.violations_after = job.sum(bounds.lower_bounds(times, threads));
  while (report.violations_after > 0 && report.passes < options.max_passes) {
    const bool first = report.passes == 0;
    const double gamma = gamma_of_pass(report.passes++);
    // Each location's pass reads and writes only that location's times.
    parallel_for(times.locations(), threads, [&](std::size_t li) {
      const auto loc = static_cast<std::uint32_t>(li);
      if (!held.contains(loc)) return;
      if (!first) before[li] = times.shifts(li);
      if (!forward(times, loc, trace.locations[li], bounds, gamma, options)) fits = false;
    });
    if (!job.all(fits)) return std::nullopt;
    job.share(times);
    bounds.upper_bounds(times, threads);
    parallel_for(times.locations(), threads, [&](std::size_t li) {
      const auto loc = static_cast<std::uint32_t>(li);
      if (!held.contains(loc)) return;
      if (!backward(times, loc, trace.locations[li], before[li], bounds, options)) fits = false;
    });
    if (!job.all(fits)) return std::nullopt;
    job.share(times);
    report.violations_after = job.sum(bounds.lower_bounds(times, threads));
  }
  before = {};

  // Each location's largest shift and latest repaired time, then the largest of them.
  std::vector<TimeNs> max_shift(times.locations(), 0), end(times.locations(), trace.end);
  parallel_for(times.locations(), threads, [&](std::size_t li) {
    if (!held.contains(li)) return;
    const Shift* shift = times.shifts(li).data();
    TimeNs largest = 0, latest = trace.end;  // written to the tables once, as above
    for_each_event(trace.locations[li], [&](Event, std::uint32_t, TimeNs original) {
      largest = std::max<TimeNs>(largest, *shift);
      latest = std::max<TimeNs>(latest, original + *shift++);
    });
    max_shift[li] = largest;
    end[li] = latest;
  });
  for (std::size_t li = 0; li < times.locations(); ++li) {
    report.max_shift = std::max(report.max_shift, max_shift[li]);
    trace.end = std::max(trace.end, end[li]);
  }
  report.max_shift = job.max(report.max_shift);
  trace.end = job.max(trace.end);
  times.write_back(trace, threads);
  return report;
}

}  // namespace

ClockRepairReport repair_clocks(Trace& trace, const Matching& matching,
                                const ClockRepairOptions& options, unsigned threads,
                                ClockRepairShares* shares) {
  // The matcher has counted the violations with the same definition; without any, the
  // repair's tables are not worth building.
  if (!shares && matching.counts.clock_violations == 0) {
    trace.clock.violations_before_repair = trace.clock.violations_after_repair = 0;
    trace.clock.max_repair_shift_s = 0;
    return {};
  }
  const LocationRange held = shares ? shares->held() : LocationRange{};
  const Totals job(shares);
  Bounds bounds(trace, matching, options, threads, held);
  // Shifts of up to 65,535 ns take 2 bytes per event, up to 4.3 s 4: a repair that moves an
  // event further starts again with the next wider shifts.
  std::optional<ClockRepairReport> report =
      repair_with<std::uint16_t>(trace, bounds, options, threads, held, job);
  if (!report) report = repair_with<std::uint32_t>(trace, bounds, options, threads, held, job);
  if (!report) report = repair_with<TimeNs>(trace, bounds, options, threads, held, job);
  trace.clock.violations_before_repair = report->violations_before;
  trace.clock.violations_after_repair = report->violations_after;
  trace.clock.max_repair_shift_s = static_cast<double>(report->max_shift) * 1e-9;
  return *report;
}

}  // namespace collwrap
