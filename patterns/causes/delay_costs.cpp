#include "delay_costs.h"

#include <algorithm>
#include <queue>
#include <span>

#include "flat_map.h"
#include "replay_slices.h"

namespace collwrap {
namespace {

bool communicates_with(const Location& l, std::uint32_t call, std::int32_t rank) {
  for (std::uint32_t op = l.call_first_op[call]; op < l.call_first_op[call + 1]; ++op) {
    switch (l.op_kind[op]) {
      case OpKind::Send:
      case OpKind::Isend:
      case OpKind::Recv:
      case OpKind::Irecv:
        if (l.op_peer[op] == rank) return true;
        break;
      case OpKind::CollectiveEnd:
      case OpKind::NbcRequest:
      case OpKind::NbcComplete:
        return true;
      default:
        break;
    }
  }
  return false;
}

struct ChargeKey {
  std::uint64_t segment = 0, wait = 0;  // (location << 32) | segment type, | call site
  bool operator==(const ChargeKey&) const = default;
};
struct ChargeKeyHash {
  std::uint64_t operator()(const ChargeKey& k) const {
    return mix_bits(k.segment ^ mix_bits(k.wait));
  }
};

std::uint64_t pair_key(std::uint32_t high, std::uint32_t low) {
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

// What the waits of the slices of time after one (delay_costs_in_slices) hand it back: the
// costs they charged to its segments and earlier ones, the waiting they passed on to its waits
// and earlier ones (by call), and the sums they added to, to be added to in the same order.
struct DelayHandover {
  struct Segment {
    std::uint32_t call = 0;
    double short_term = 0, long_term = 0;
    float largest_charge = 0;
  };
  struct Wait {
    std::uint32_t call = 0;
    double propagated = 0;
    std::uint32_t origin = kNone;
    double origin_share = 0;
  };
  std::vector<Segment> segments;
  std::vector<Wait> waits;
  std::vector<WaitCharge> charges;  // in the order they were first charged
  double total_wait = 0, residual = 0;
};

class DelayAnalysis {
 public:
  DelayAnalysis(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                const ReplayTimes& times, const DelayOptions& options)
      : trace_(trace), graph_(graph), types_(types), times_(times), options_(options) {
    costs_.short_term.assign(graph.calls(), 0);
    costs_.long_term.assign(graph.calls(), 0);
    costs_.largest_charge.assign(graph.calls(), 0);
    list_waits();
    propagated_.assign(waits_.size(), 0);
    origin_.assign(waits_.size(), kNone);
    origin_share_.assign(waits_.size(), 0);
    excess_.assign(types.types(), 0);
    delayer_time_.assign(types.types(), 0);
    seen_.assign(types.types(), 0);
  }

  DelayCosts run() {
    attribute_in(waits_last_first());
    return finish();
  }

  // The waits (indexes into waits_) in `order`.
  void attribute_in(std::span<const std::uint32_t> order) {
    for (const std::uint32_t w : order) attribute(w);
  }

  DelayCosts finish() {
    costs_.waits = waits_.size();
    return std::move(costs_);
  }

  // What the waits attributed so far passed on to the segments of the calls and to the waits
  // `before` selects (by global call), and the sums they add to: what a slice of time hands the
  // slice before it.
  template <typename Before>
  DelayHandover hand_back(Before&& before) const {
    DelayHandover out;
    for (std::uint32_t g = 0; g < graph_.calls(); ++g)
      if (before(g) &&
          (costs_.short_term[g] != 0 || costs_.long_term[g] != 0 || costs_.largest_charge[g] != 0))
        out.segments.push_back(
            {g, costs_.short_term[g], costs_.long_term[g], costs_.largest_charge[g]});
    for (std::uint32_t k = 0; k < waits_.size(); ++k)
      if (before(waits_[k]) && (propagated_[k] != 0 || origin_[k] != kNone))
        out.waits.push_back({waits_[k], propagated_[k], origin_[k], origin_share_[k]});
    out.charges = costs_.charges;
    out.total_wait = costs_.total_wait;
    out.residual = costs_.residual;
    return out;
  }

  // Goes on from what the slices after this one handed back.
  void take_over(const DelayHandover& in) {
    for (const DelayHandover::Segment& s : in.segments) {
      costs_.short_term[s.call] = s.short_term;
      costs_.long_term[s.call] = s.long_term;
      costs_.largest_charge[s.call] = s.largest_charge;
    }
    for (const DelayHandover::Wait& w : in.waits) {
      const std::uint32_t k = first_wait_from(graph_.call_loc[w.call], w.call);
      propagated_[k] = w.propagated;
      origin_[k] = w.origin;
      origin_share_[k] = w.origin_share;
    }
    for (const WaitCharge& c : in.charges) {
      const auto index = static_cast<std::uint32_t>(costs_.charges.size());
      charge_index_.insert(
          {pair_key(c.segment_loc, c.segment_type), pair_key(c.wait_loc, c.wait_site)}, index);
      costs_.charges.push_back(c);
    }
    costs_.total_wait = in.total_wait;
    costs_.residual = in.residual;
  }

  // The waits (indexes into waits_) from the last to finish to the first; of two that finish
  // together, the one with the larger call id first. A location's Leaves never decrease in a
  // replay, so each location's waits are in that order already when read backwards: merged,
  // not sorted.
  std::vector<std::uint32_t> waits_last_first() const {
    struct Head {
      TimeNs leave;
      std::uint32_t call;
      std::uint32_t index, first;  // into waits_: this wait, its location's first wait
      bool operator<(const Head& o) const {
        return leave != o.leave ? leave < o.leave : call < o.call;
      }
    };
    std::priority_queue<Head> heads;
    const auto push = [&](std::uint32_t index, std::uint32_t first) {
      heads.push({times_.leave(waits_[index]), waits_[index], index, first});
    };
    for (std::size_t loc = 0; loc + 1 < loc_first_wait_.size(); ++loc)
      if (loc_first_wait_[loc + 1] > loc_first_wait_[loc])
        push(loc_first_wait_[loc + 1] - 1, loc_first_wait_[loc]);
    std::vector<std::uint32_t> order;
    order.reserve(waits_.size());
    while (!heads.empty()) {
      const Head head = heads.top();
      heads.pop();
      order.push_back(head.index);
      if (head.index > head.first) push(head.index - 1, head.first);
    }
    return order;
  }

  // The call of wait k, and the wait of a call that waited.
  std::uint32_t wait_call(std::uint32_t k) const { return waits_[k]; }
  std::uint32_t wait_index(std::uint32_t call) const {
    return first_wait_from(graph_.call_loc[call], call);
  }

  const DelayCosts& costs() const { return costs_; }

 private:
  // The calls that waited, by location and then call (waits_), and where each location's
  // waits begin (loc_first_wait_). What is passed on from wait to wait is kept per wait, not per
  // call: most calls do not wait.
  void list_waits() {
    loc_first_wait_.reserve(graph_.loc_first_call.size());
    for (std::uint32_t loc = 0; loc + 1 < graph_.loc_first_call.size(); ++loc) {
      loc_first_wait_.push_back(static_cast<std::uint32_t>(waits_.size()));
      for (std::uint32_t g = graph_.loc_first_call[loc]; g < graph_.loc_first_call[loc + 1]; ++g)
        if (times_.wait(g) > 0) waits_.push_back(g);
    }
    loc_first_wait_.push_back(static_cast<std::uint32_t>(waits_.size()));
  }

  // The first of the location's waits at or after call g.
  std::uint32_t first_wait_from(std::uint32_t loc, std::uint32_t g) const {
    const auto begin = waits_.begin() + loc_first_wait_[loc];
    const auto end = waits_.begin() + loc_first_wait_[loc + 1];
    return static_cast<std::uint32_t>(std::lower_bound(begin, end, g) - waits_.begin());
  }

  TimeNs segment(std::uint32_t g) const { return graph_.segment(g); }

  // First global call of the synchronization interval that ends at call g, towards `rank`.
  std::uint32_t interval_begin(std::uint32_t g, std::int32_t rank) const {
    const std::uint32_t loc = graph_.call_loc[g];
    const std::uint32_t first = graph_.loc_first_call[loc];
    const Location& l = trace_.locations[loc];
    std::uint32_t limit =
        g - first > options_.max_interval_calls ? g - options_.max_interval_calls : first;
    for (std::uint32_t c = g; c > limit; --c)
      if (communicates_with(l, c - 1 - first, rank)) return c;
    return limit;
  }

  // The wait waits_[wait].
  void attribute(std::uint32_t wait) {
    const std::uint32_t w = waits_[wait];
    const std::uint32_t s = times_.waited_for[w];
    const double direct = static_cast<double>(times_.wait(w));
    const double propagated = propagated_[wait];
    costs_.total_wait += direct;
    const Location& waiter = trace_.locations[graph_.call_loc[w]];
    const Location& delayer = trace_.locations[graph_.call_loc[s]];
    if (graph_.call_loc[w] == graph_.call_loc[s]) {
      costs_.residual += direct + propagated;
      return;
    }
    const std::uint32_t d0 = interval_begin(s, waiter.rank);
    const std::uint32_t w0 = interval_begin(w, delayer.rank);

    TimeNs delayer_wait = 0, waiter_wait = 0;
    for (std::uint32_t d = d0; d <= s; ++d) {
      add_excess(d, segment(d));
      delayer_time_[types_.type_of_call[d]] += segment(d);
      if (d < s) delayer_wait += times_.wait(d);
    }
    for (std::uint32_t v = w0; v <= w; ++v) {
      add_excess(v, -segment(v));
      if (v < w) waiter_wait += times_.wait(v);
    }
    double total_excess = 0;
    for (const std::uint32_t t : touched_)
      total_excess += static_cast<double>(std::max<TimeNs>(0, excess_[t]));
    const double wait_excess = static_cast<double>(std::max<TimeNs>(0, delayer_wait - waiter_wait));
    total_excess += wait_excess;

    if (total_excess <= 0) {
      costs_.residual += direct + propagated;
    } else {
      for (std::uint32_t d = d0; d <= s; ++d) {
        const std::uint32_t t = types_.type_of_call[d];
        if (excess_[t] <= 0 || delayer_time_[t] <= 0) continue;
        const double share = static_cast<double>(excess_[t]) / total_excess *
                             static_cast<double>(segment(d)) /
                             static_cast<double>(delayer_time_[t]);
        costs_.largest_charge[d] =
            std::max(costs_.largest_charge[d], static_cast<float>(direct * share));
        costs_.short_term[d] += direct * share;
        costs_.long_term[d] += propagated * share;
        charge(d, w, direct * share, 0);
        if (propagated > 0) charge(d, origin_[wait], 0, propagated * share);
      }
      if (wait_excess > 0) {
        const double passed_on = (direct + propagated) * wait_excess / total_excess;
        // The delayer's waits in [d0, s), in call order.
        const std::uint32_t delayer_loc = graph_.call_loc[s];
        for (std::uint32_t k = first_wait_from(delayer_loc, d0);
             k < loc_first_wait_[delayer_loc + 1] && waits_[k] < s; ++k) {
          const TimeNs waited = times_.wait(waits_[k]);
          const double part =
              passed_on * static_cast<double>(waited) / static_cast<double>(delayer_wait);
          propagated_[k] += part;
          if (part > origin_share_[k]) {
            origin_share_[k] = part;
            origin_[k] = direct >= propagated ? w : origin_[wait];
          }
        }
      }
    }
    for (const std::uint32_t t : touched_) excess_[t] = delayer_time_[t] = 0;
    touched_.clear();
    ++epoch_;
  }

  // Adds to the charge of the segment ending at call d for the wait at call w.
  void charge(std::uint32_t d, std::uint32_t w, double short_term, double long_term) {
    const std::uint32_t d_loc = graph_.call_loc[d], w_loc = graph_.call_loc[w];
    const std::uint32_t site = trace_.locations[w_loc].call_callsite[graph_.local(w)];
    const ChargeKey key{pair_key(d_loc, types_.type_of_call[d]), pair_key(w_loc, site)};
    const auto next = static_cast<std::uint32_t>(costs_.charges.size());
    const std::uint32_t index = charge_index_.insert(key, next);
    if (index == next) costs_.charges.push_back({d_loc, types_.type_of_call[d], w_loc, site, 0, 0});
    costs_.charges[index].short_term += short_term;
    costs_.charges[index].long_term += long_term;
  }

  void add_excess(std::uint32_t g, TimeNs time) {
    const std::uint32_t t = types_.type_of_call[g];
    if (seen_[t] != epoch_) {
      seen_[t] = epoch_;
      touched_.push_back(t);
    }
    excess_[t] += time;
  }

  const Trace& trace_;
  const ReplayGraph& graph_;
  const SegmentTypes& types_;
  const ReplayTimes& times_;
  const DelayOptions& options_;
  DelayCosts costs_;
  std::vector<std::uint32_t> waits_;           // global calls that waited, by location, call
  std::vector<std::uint32_t> loc_first_wait_;  // by location: its first in waits_
  std::vector<double> propagated_;             // by wait: waiting passed on to it, in ns
  std::vector<std::uint32_t> origin_;  // by wait: the wait (call) its largest part came from
  std::vector<double> origin_share_;   // by wait: that part, in ns
  FlatMap<ChargeKey, ChargeKeyHash> charge_index_{64};  // into costs_.charges
  std::vector<TimeNs> excess_;                          // by segment type, for the interval at hand
  std::vector<TimeNs> delayer_time_;    // by segment type: the delayer's time in the interval
  std::vector<std::uint32_t> touched_;  // segment types to reset
  std::vector<std::uint32_t> seen_;     // by segment type: epoch_ when in touched_
  std::uint32_t epoch_ = 1;
};

}  // namespace

DelayCosts delay_costs(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                       const ReplayTimes& times, const DelayOptions& options) {
  return DelayAnalysis(trace, graph, types, times, options).run();
}

DelayCosts delay_costs_in_slices(const Trace& trace, const ReplayGraph& graph,
                                 const SegmentTypes& types, const ReplayTimes& times,
                                 const SliceCuts& cuts, const DelayOptions& options) {
  const std::vector<std::uint32_t> slice = slice_of_calls(graph, cuts);
  std::vector<std::uint32_t> order;
  {
    const DelayAnalysis lists(trace, graph, types, times, options);
    order = lists.waits_last_first();
    for (std::uint32_t& k : order) k = lists.wait_call(k);
  }
  DelayCosts result;
  result.short_term.assign(graph.calls(), 0);
  result.long_term.assign(graph.calls(), 0);
  result.largest_charge.assign(graph.calls(), 0);
  DelayHandover handed;
  std::size_t next = 0;  // into order: the last wait of the slice at hand
  for (std::size_t s = cuts.slices(); s-- > 0;) {
    // A slice of its own for each, as each process of a divided analysis would hold: only what
    // is handed back comes from the slices after.
    DelayAnalysis analysis(trace, graph, types, times, options);
    analysis.take_over(handed);
    std::vector<std::uint32_t> waits;  // of this slice, as indexes of the analysis
    for (; next < order.size() && slice[order[next]] == s; ++next)
      waits.push_back(analysis.wait_index(order[next]));
    analysis.attribute_in(waits);
    // The segments that belong to this slice have had every charge: a wait charges only
    // segments that begin before it ends, and the waits of the earlier slices, still to come,
    // end before this slice's segments begin.
    const DelayCosts& costs = analysis.costs();
    for (std::uint32_t g = 0; g < graph.calls(); ++g)
      if (entered_in(graph, slice, g) == s) {
        result.short_term[g] = costs.short_term[g];
        result.long_term[g] = costs.long_term[g];
        result.largest_charge[g] = costs.largest_charge[g];
      }
    if (s == 0) {
      DelayCosts last = analysis.finish();
      result.total_wait = last.total_wait;
      result.residual = last.residual;
      result.waits = last.waits;
      result.charges = std::move(last.charges);
    } else {
      handed = analysis.hand_back([&](std::uint32_t g) { return entered_in(graph, slice, g) < s; });
    }
  }
  return result;
}

}  // namespace collwrap
