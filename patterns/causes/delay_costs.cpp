#include "delay_costs.h"

#include <algorithm>
#include <optional>
#include <span>

#include "call_runs.h"
#include "flat_map.h"
#include "loser_tree.h"
#include "ordered_pipeline.h"
#include "parallel_for.h"
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

// The calls of the whole trace and its replay, as the analyzer alone reads them: numbered by
// global id, the synchronization intervals found as the waits are attributed.
class WholeTraceCalls {
 public:
  WholeTraceCalls(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                  const ReplayTimes& times, const DelayOptions& options)
      : trace_(trace), graph_(graph), types_(types), times_(times), options_(options) {}

  std::uint32_t calls() const { return static_cast<std::uint32_t>(graph_.calls()); }
  std::span<const std::uint32_t> loc_first_call() const { return graph_.loc_first_call; }
  std::uint32_t call_loc(std::uint32_t g) const { return graph_.call_loc[g]; }
  TimeNs segment(std::uint32_t g) const { return graph_.segment(g); }
  std::uint32_t type(std::uint32_t g) const { return types_.type_of_call[g]; }
  TimeNs wait(std::uint32_t g) const { return times_.wait(g); }
  TimeNs leave(std::uint32_t g) const { return times_.leave(g); }
  std::uint32_t waited_for(std::uint32_t g) const { return times_.waited_for[g]; }
  std::uint32_t site(std::uint32_t g) const {
    return trace_.locations[graph_.call_loc[g]].call_callsite[graph_.local(g)];
  }
  // The first calls of the synchronization intervals of the wait at call w: its own, towards
  // the location it waited for, and the waited-for call's, towards w's.
  std::uint32_t waiter_begin(std::uint32_t w) const {
    return begin(w, trace_.locations[graph_.call_loc[waited_for(w)]].rank);
  }
  std::uint32_t delayer_begin(std::uint32_t w) const {
    return begin(waited_for(w), trace_.locations[graph_.call_loc[w]].rank);
  }
  std::uint32_t global(std::uint32_t g) const { return g; }
  std::uint32_t local(std::uint32_t g) const { return g; }
  // Asks for what the Leave of call g reads: the Enter it waited for, on another location.
  void prefetch_leave(std::uint32_t g) const {
    __builtin_prefetch(times_.enter.data() + times_.waited_for[g]);
  }
  // Asks the cache for what attributing the wait at call w will read first, some waits ahead:
  // the calls up to w and up to the call it waited for, whose intervals run back from them.
  // Where they begin is not known yet (kNone).
  std::uint32_t prefetch(std::uint32_t w) const {
    const std::uint32_t s = times_.waited_for[w];
    for (const std::uint32_t g : {w, s}) {
      const std::uint32_t back = g > 4 ? g - 4 : 0;
      __builtin_prefetch(graph_.call_costs.data() + back);
      __builtin_prefetch(types_.type_of_call.data() + back);
      __builtin_prefetch(times_.waited_for.data() + back);
      __builtin_prefetch(times_.enter.data() + back);
      __builtin_prefetch(graph_.call_loc.data() + g);
    }
    return kNone;
  }

 private:
  std::uint32_t begin(std::uint32_t g, std::int32_t rank) const {
    const std::uint32_t first = graph_.loc_first_call[graph_.call_loc[g]];
    return first + interval_begin(trace_.locations[graph_.call_loc[g]], g - first, rank, options_);
  }

  const Trace& trace_;
  const ReplayGraph& graph_;
  const SegmentTypes& types_;
  const ReplayTimes& times_;
  const DelayOptions& options_;
};

// The calls of one slice's window, numbered by their rows (location by location); the
// synchronization intervals as the window's waits give them.
class WindowCalls {
 public:
  explicit WindowCalls(DelayWindow window) : window_(std::move(window)) {
    loc_first_row_.reserve(window_.first.size() + 1);
    std::uint32_t rows = 0;
    for (std::size_t loc = 0; loc < window_.first.size(); ++loc) {
      loc_first_row_.push_back(rows);
      runs_.add(window_.first[loc], window_.end[loc]);
      rows += window_.end[loc] - window_.first[loc];
    }
    loc_first_row_.push_back(rows);
    if (rows != window_.rows() || rows != window_.segment.size())
      throw std::invalid_argument("delay window: its rows and runs of calls differ in number");
    segment_.resize(rows);
    for (std::uint32_t r = 0; r < rows; ++r) {
      segment_[r] = ReplayGraph::short_cost(window_.segment[r]);
      if (segment_[r] == ReplayGraph::kLongCost) long_segments_.emplace_back(r, window_.segment[r]);
    }
    std::vector<TimeNs>().swap(window_.segment);
    wait_of_row_.assign(rows, kNone);
    wait_time_.resize(window_.waits.size());
    for (std::uint32_t k = 0; k < window_.waits.size(); ++k) {
      const std::uint32_t r = local(window_.waits[k].call);
      if (r == kNone) throw std::invalid_argument("delay window: a wait outside its runs of calls");
      wait_of_row_[r] = k;
      wait_time_[k] = ReplayGraph::short_cost(window_.waits[k].wait);
    }
  }

  std::uint32_t calls() const { return static_cast<std::uint32_t>(window_.rows()); }
  std::span<const std::uint32_t> loc_first_call() const { return loc_first_row_; }
  // Found among the locations' first rows rather than kept per row (4 bytes a row): the
  // analysis asks twice per wait.
  std::uint32_t call_loc(std::uint32_t r) const {
    return static_cast<std::uint32_t>(
        std::upper_bound(loc_first_row_.begin(), loc_first_row_.end(), r) - loc_first_row_.begin() -
        1);
  }
  TimeNs segment(std::uint32_t r) const {
    return segment_[r] != ReplayGraph::kLongCost ? segment_[r]
                                                 : ReplayGraph::long_cost(long_segments_, r);
  }
  std::uint32_t type(std::uint32_t r) const { return window_.type[r]; }
  TimeNs wait(std::uint32_t r) const {
    const std::uint32_t k = wait_of_row_[r];
    if (k == kNone) return 0;
    return wait_time_[k] != ReplayGraph::kLongCost ? wait_time_[k] : window_.waits[k].wait;
  }
  // Of calls that waited only:
  TimeNs leave(std::uint32_t r) const { return waited(r).leave; }
  std::uint32_t waited_for(std::uint32_t r) const { return checked(waited(r).waited_for); }
  std::uint32_t site(std::uint32_t r) const { return waited(r).site; }
  std::uint32_t waiter_begin(std::uint32_t r) const { return checked(waited(r).waiter_begin); }
  std::uint32_t delayer_begin(std::uint32_t r) const { return checked(waited(r).delayer_begin); }

  // Asks the cache for what attributing the wait at row r reads first: its two intervals,
  // from their first calls (without this, the two attributions of a job of two processes
  // took 1.78 s in the median of six runs at 10^8 events; with it and the costs' prefetch in
  // attribute_own, 1.55). Called as r becomes a head (attribute_own), which reads the wait's
  // entry anyway. Returns the first row of the delayer's interval, whose costs the wait adds
  // to, or kNone.
  std::uint32_t prefetch(std::uint32_t r) const {
    const DelayWait& w = waited(r);
    const auto rows_from = [this](std::uint32_t g) {
      const std::uint32_t begin = local(g);
      if (begin != kNone) {
        __builtin_prefetch(segment_.data() + begin);
        __builtin_prefetch(window_.type.data() + begin);
        __builtin_prefetch(wait_of_row_.data() + begin);
      }
      return begin;
    };
    rows_from(w.waiter_begin);
    return rows_from(w.delayer_begin);
  }
  // Asks for what the Leave of the wait at row r reads.
  void prefetch_leave(std::uint32_t r) const {
    if (const std::uint32_t k = wait_of_row_[r]; k != kNone)
      __builtin_prefetch(window_.waits.data() + k);
  }
  std::uint32_t global(std::uint32_t r) const {
    const std::uint32_t loc = call_loc(r);
    return window_.first[loc] + (r - loc_first_row_[loc]);
  }
  // The row of global call g, or kNone when the window does not hold it.
  std::uint32_t local(std::uint32_t g) const { return runs_.local(g); }
  const DelayWindow& window() const { return window_; }
  void release_waits() {
    std::vector<DelayWait>().swap(window_.waits);
    std::vector<std::uint32_t>().swap(wait_of_row_);
    std::vector<std::uint32_t>().swap(wait_time_);
  }

 private:
  const DelayWait& waited(std::uint32_t r) const { return window_.waits[wait_of_row_[r]]; }
  std::uint32_t checked(std::uint32_t g) const {
    const std::uint32_t r = local(g);
    if (r == kNone)
      throw std::invalid_argument("delay window: a wait reads a call outside the window");
    return r;
  }

  DelayWindow window_;  // its segments moved to segment_
  // By row, the segment in 4 bytes (ReplayGraph::short_cost; the longer ones in long_segments_
  // by row): an interval's reading walks the segments at every wait it ends or leads to, and
  // this is one of the window's largest columns at the delay analysis's peak.
  std::vector<std::uint32_t> segment_;
  std::vector<std::pair<std::uint32_t, TimeNs>> long_segments_;
  CallRuns runs_;
  std::vector<std::uint32_t> loc_first_row_;  // locations + 1 entries
  std::vector<std::uint32_t> wait_of_row_;    // by row: index into window_.waits, or kNone
  // By wait, how long it waited (ReplayGraph::kLongCost: 4.3 s or more, or below 0, read from
  // window_.waits): an interval's waits are read at every wait it ends or leads to, and 16 of
  // them share a cache line where one entry of window_.waits (40 bytes) took one; the entries'
  // misses were 39 % of the intervals' reading at 10^8 events with two processes.
  std::vector<std::uint32_t> wait_time_;
};

// What attributing one wait reads of its two synchronization intervals: where the delayer's
// begins, the delayer's waiting in it, the excess the wait is spread over (0: none, the wait
// is residual), the part of it that is excess waiting, and the segment types with an excess
// (`shares` entries of a chunk's list, from first_share).
struct IntervalPlan {
  std::uint32_t delayer_begin = 0;
  std::uint32_t first_share = 0, shares = 0;
  TimeNs delayer_wait = 0;
  double total_excess = 0, wait_excess = 0;
};
// A segment type with an excess: its share of the wait's excess, and the delayer's time in it.
struct TypeShare {
  std::uint32_t type = 0;
  double of_excess = 0, delayer_time = 0;
};

// The sums per segment type one thread makes over a wait's intervals. A cache line of its own:
// the threads write their ends of `touched` and their epochs for every wait.
struct alignas(64) IntervalScratch {
  std::vector<TimeNs> excess;          // by segment type: delayer's time minus waiter's
  std::vector<TimeNs> delayer_time;    // by segment type
  std::vector<std::uint32_t> touched;  // segment types to reset
  std::vector<std::uint32_t> seen;     // by segment type: epoch when in touched
  std::uint32_t epoch = 1;

  explicit IntervalScratch(std::size_t types) : excess(types), delayer_time(types), seen(types) {}
  void add_excess(std::uint32_t type, TimeNs time) {
    if (seen[type] != epoch) {
      seen[type] = epoch;
      touched.push_back(type);
    }
    excess[type] += time;
  }
  void clear() {
    for (const std::uint32_t t : touched) excess[t] = delayer_time[t] = 0;
    touched.clear();
    ++epoch;
  }
};

// Waits in the order they are attributed, with what they read of their intervals. A cache line
// of its own: threads side by side fill the chunks next to each other.
struct alignas(64) WaitChunk {
  std::vector<std::uint32_t> waits;  // into the analysis's waits
  std::vector<IntervalPlan> plans;   // by wait
  std::vector<TypeShare> shares;
};
// Chunks between being listed and being attributed, the waits in each (on the 10^8-event
// synthetic archive, two threads took 1.13-1.14 s with 4,096, 1.26-1.43 with 1,024 and
// 1.36-1.86 with 128, as the threads met more often), and how far ahead of its turn a wait's
// first calls are asked for from memory.
constexpr std::size_t kChunksInFlight = 8, kChunkWaits = 4096, kPrefetchAhead = 4;

// The delay analysis of the calls `Calls` gives (WholeTraceCalls or WindowCalls), by their
// numbering.
template <class Calls>
class DelayAnalysis {
 public:
  // The tables are made on `threads` threads side by side: most of their time is the faults of
  // their first pages.
  DelayAnalysis(Calls calls, std::size_t types, unsigned threads = 1) : calls_(std::move(calls)) {
    parallel_for(4, threads, [&](std::size_t table) {
      switch (table) {
        case 0:
          costs_.short_term.assign(calls_.calls(), 0);
          break;
        case 1:
          costs_.long_term.assign(calls_.calls(), 0);
          break;
        case 2:
          costs_.largest_charge.assign(calls_.calls(), 0);
          break;
        default:
          list_waits();
          propagated_.assign(waits_.size(), 0);
          origin_loc_.assign(waits_.size(), kNone);
          origin_site_.assign(waits_.size(), kNone);
          origin_share_.assign(waits_.size(), 0);
          break;
      }
    });
    of_excess_.assign(types, 0);
    delayer_time_.assign(types, 0);
  }

  // The waits `own` selects (by call), from the last to finish to the first; of two that
  // finish together, the one with the larger call id first. A location's Leaves never
  // decrease in a replay, so each location's waits are in that order already when read
  // backwards: merged, not sorted.
  template <typename Own>
  class WaitOrder {
   public:
    WaitOrder(const DelayAnalysis& a, Own own)
        : a_(a), own_(std::move(own)), next_(a.loc_first_wait_.size() - 1), heads_(first_heads()) {}
    // The next wait, into waits_; waits_.size() when there is none.
    std::uint32_t next() {
      LoserTree<Head>& heads = heads_;
      while (!heads.empty()) {
        const std::uint32_t loc = heads.top();
        const std::uint32_t wait = next_[loc];
        const bool own_it = own_(heads.top_key().call);
        if (next_[loc] > a_.loc_first_wait_[loc])
          heads.replace_top(head(--next_[loc]));
        else
          heads.replace_top({}, false);
        if (own_it) return wait;
      }
      return static_cast<std::uint32_t>(a_.waits_.size());
    }

   private:
    struct Head {
      TimeNs leave = 0;
      std::uint32_t call = 0;
      bool operator<(const Head& o) const {
        return leave != o.leave ? leave < o.leave : call < o.call;
      }
    };
    // Each location's last wait, from which next_ counts down.
    LoserTree<Head> first_heads() {
      const std::size_t locations = next_.size();
      std::vector<Head> first(locations);
      std::vector<char> has(locations);
      for (std::size_t loc = 0; loc < locations; ++loc) {
        next_[loc] = a_.loc_first_wait_[loc + 1];
        if ((has[loc] = next_[loc] > a_.loc_first_wait_[loc])) first[loc] = head(--next_[loc]);
      }
      return LoserTree<Head>(std::move(first), std::move(has));
    }
    Head head(std::uint32_t k) const {
      // A head is taken a wait of each other location later: what attributing it reads first
      // (and the costs it adds to, where known) is asked for from memory now, and so is the
      // Enter the location's next head's Leave reads (the Enter it waited for, elsewhere).
      if (const std::uint32_t d = a_.calls_.prefetch(a_.waits_[k]); d != kNone)
        a_.prefetch_costs(d);
      if (k > 0) a_.calls_.prefetch_leave(a_.waits_[k - 1]);
      return Head{a_.calls_.leave(a_.waits_[k]), a_.calls_.global(a_.waits_[k])};
    }

    const DelayAnalysis& a_;
    Own own_;
    std::vector<std::uint32_t> next_;  // by location: its next wait, counting down to its first
    LoserTree<Head> heads_;
  };

  // Attributes the waits `own` selects (by call), in their order (WaitOrder). The waits go in
  // chunks: what each reads of its synchronization intervals does not depend on the others
  // and is found on any of `threads` threads, while the attribution itself, which passes
  // waiting on to earlier waits, takes the chunks in order on one thread at a time.
  template <typename Own>
  void attribute_own(Own&& own, unsigned threads = 1) {
    WaitOrder<std::decay_t<Own>> order(*this, std::forward<Own>(own));
    attribute_in_order(order, threads);
  }

  // Plans the waits of `order` ahead of their attribution (attribute_in_order), in their
  // order, until `stop()` or until the plans would take more than `most_bytes`.
  template <class Order, typename Stop>
  void plan_ahead(Order& order, std::size_t most_bytes, Stop&& stop) {
    constexpr std::size_t kBytesPerWait = sizeof(std::uint32_t) + sizeof(IntervalPlan);
    const std::size_t types = of_excess_.size();
    WaitChunk& ahead = planned_;
    ahead.waits.reserve(most_bytes / 2 / kBytesPerWait);
    ahead.plans.reserve(ahead.waits.capacity());
    ahead.shares.reserve(most_bytes / 2 / sizeof(TypeShare));
    IntervalScratch scratch(types);
    while (!stop()) {
      for (std::size_t n = 0; n < 1024; ++n) {
        if (ahead.waits.size() == ahead.waits.capacity() ||
            ahead.shares.capacity() - ahead.shares.size() < types)
          return;
        const std::uint32_t wait = order.next();
        if (wait == waits_.size()) return;
        ahead.waits.push_back(wait);
        ahead.plans.push_back(plan(wait, scratch, ahead.shares));
      }
    }
  }
  std::size_t planned_ahead() const { return planned_.waits.size(); }

  // Attributes the waits planned ahead, then the rest of `order`'s.
  template <class Order>
  void attribute_in_order(Order& order, unsigned threads) {
    attribute_planned(planned_);
    planned_ = {};
    const unsigned workers = worker_count(threads, kChunksInFlight);
    std::vector<IntervalScratch> scratch(workers, IntervalScratch(of_excess_.size()));
    if (workers == 1) {
      std::vector<TypeShare> shares;
      for (std::uint32_t wait; (wait = order.next()) < waits_.size(); ++costs_.waits) {
        shares.clear();
        const IntervalPlan p = plan(wait, scratch[0], shares);
        attribute(wait, p, shares);
      }
      return;
    }
    std::vector<WaitChunk> chunks(kChunksInFlight);
    ordered_pipeline(
        kChunksInFlight, workers,
        [&](std::size_t, std::size_t slot) {
          WaitChunk& chunk = chunks[slot];
          chunk.waits.clear();
          for (std::uint32_t wait;
               chunk.waits.size() < kChunkWaits && (wait = order.next()) < waits_.size();)
            chunk.waits.push_back(wait);
          return !chunk.waits.empty();
        },
        [&](std::size_t, std::size_t slot, unsigned worker) {
          WaitChunk& chunk = chunks[slot];
          chunk.plans.resize(chunk.waits.size());
          chunk.shares.clear();
          for (std::size_t i = 0; i < chunk.waits.size(); ++i) {
            if (i + kPrefetchAhead < chunk.waits.size())
              calls_.prefetch(waits_[chunk.waits[i + kPrefetchAhead]]);
            chunk.plans[i] = plan(chunk.waits[i], scratch[worker], chunk.shares);
          }
        },
        [&](std::size_t, std::size_t slot) { attribute_planned(chunks[slot]); });
  }

  // Attributes a chunk's waits from their plans, in order.
  void attribute_planned(const WaitChunk& chunk) {
    for (std::size_t i = 0; i < chunk.waits.size(); ++i) {
      if (i + kPrefetchAhead < chunk.waits.size())
        prefetch_costs(chunk.plans[i + kPrefetchAhead].delayer_begin);
      const IntervalPlan& p = chunk.plans[i];
      attribute(chunk.waits[i], p, std::span(chunk.shares).subspan(p.first_share, p.shares));
    }
    costs_.waits += chunk.waits.size();
  }

  DelayHandover hand_back(const std::function<bool(std::uint32_t)>& before) const {
    DelayHandover out = passed_through_;
    for (std::uint32_t r = 0; r < calls_.calls(); ++r)
      if ((costs_.short_term[r] != 0 || costs_.long_term[r] != 0 ||
           costs_.largest_charge[r] != 0) &&
          before(calls_.global(r)))
        out.segments.push_back({calls_.global(r), costs_.short_term[r], costs_.long_term[r],
                                costs_.largest_charge[r]});
    for (std::uint32_t k = 0; k < waits_.size(); ++k)
      if ((propagated_[k] != 0 || origin_loc_[k] != kNone) && before(calls_.global(waits_[k])))
        out.waits.push_back({calls_.global(waits_[k]), propagated_[k], origin_loc_[k],
                             origin_site_[k], origin_share_[k]});
    out.charges = costs_.charges;
    out.total_wait = costs_.total_wait;
    out.residual = costs_.residual;
    return out;
  }

  void take_over(DelayHandover in) {
    for (const DelayHandover::Segment& s : in.segments) {
      const std::uint32_t r = calls_.local(s.call);
      if (r == kNone) {
        passed_through_.segments.push_back(s);
        continue;
      }
      costs_.short_term[r] = s.short_term;
      costs_.long_term[r] = s.long_term;
      costs_.largest_charge[r] = s.largest_charge;
    }
    for (const DelayHandover::Wait& w : in.waits) {
      const std::uint32_t r = calls_.local(w.call);
      if (r == kNone) {
        passed_through_.waits.push_back(w);
        continue;
      }
      const std::uint32_t k = first_wait_from(calls_.call_loc(r), r);
      if (k == waits_.size() || waits_[k] != r)
        throw std::invalid_argument(
            "delay handover: waiting passed on to a call that did not wait");
      propagated_[k] = w.propagated;
      origin_loc_[k] = w.origin_loc;
      origin_site_[k] = w.origin_site;
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

  const DelayCosts& costs() const { return costs_; }
  DelayCosts finish() { return std::move(costs_); }
  void release_waits() {
    for (auto* v : {&waits_, &loc_first_wait_, &origin_loc_, &origin_site_})
      std::vector<std::uint32_t>().swap(*v);
    for (auto* v : {&propagated_, &origin_share_}) std::vector<double>().swap(*v);
    charge_index_ = FlatMap<ChargeKey, ChargeKeyHash>(64);
    calls_.release_waits();
  }
  const Calls& calls() const { return calls_; }

 private:
  // The calls that waited, by location and then call (waits_), and where each location's
  // waits begin (loc_first_wait_). What is passed on from wait to wait is kept per wait, not per
  // call: most calls do not wait.
  void list_waits() {
    const std::span<const std::uint32_t> first = calls_.loc_first_call();
    loc_first_wait_.reserve(first.size());
    for (std::uint32_t loc = 0; loc + 1 < first.size(); ++loc) {
      loc_first_wait_.push_back(static_cast<std::uint32_t>(waits_.size()));
      for (std::uint32_t g = first[loc]; g < first[loc + 1]; ++g)
        if (calls_.wait(g) > 0) waits_.push_back(g);
    }
    loc_first_wait_.push_back(static_cast<std::uint32_t>(waits_.size()));
  }

  // Asks for the costs of row d, which a wait's attribution adds to.
  void prefetch_costs(std::uint32_t d) const {
    __builtin_prefetch(costs_.short_term.data() + d, 1);
    __builtin_prefetch(costs_.long_term.data() + d, 1);
    __builtin_prefetch(costs_.largest_charge.data() + d, 1);
  }

  // The first of the location's waits at or after call g.
  std::uint32_t first_wait_from(std::uint32_t loc, std::uint32_t g) const {
    const auto begin = waits_.begin() + loc_first_wait_[loc];
    const auto end = waits_.begin() + loc_first_wait_[loc + 1];
    return static_cast<std::uint32_t>(std::lower_bound(begin, end, g) - waits_.begin());
  }

  // What attributing the wait waits_[wait] takes from its two synchronization intervals: on
  // the waiter's side, the interval from waiter_begin to the wait, on the delayer's, from
  // delayer_begin to the call waited for. Per segment type, the delayer's time there minus
  // the waiter's is the excess; the types with a positive one go to `shares`.
  IntervalPlan plan(std::uint32_t wait, IntervalScratch& sc, std::vector<TypeShare>& shares) const {
    IntervalPlan p;
    p.first_share = static_cast<std::uint32_t>(shares.size());
    const std::uint32_t w = waits_[wait];
    const std::uint32_t s = calls_.waited_for(w);
    if (calls_.call_loc(w) == calls_.call_loc(s)) return p;  // nothing to attribute
    p.delayer_begin = calls_.delayer_begin(w);
    const std::uint32_t w0 = calls_.waiter_begin(w);

    TimeNs waiter_wait = 0;
    for (std::uint32_t d = p.delayer_begin; d <= s; ++d) {
      sc.add_excess(calls_.type(d), calls_.segment(d));
      sc.delayer_time[calls_.type(d)] += calls_.segment(d);
      if (d < s) p.delayer_wait += calls_.wait(d);
    }
    for (std::uint32_t v = w0; v <= w; ++v) {
      sc.add_excess(calls_.type(v), -calls_.segment(v));
      if (v < w) waiter_wait += calls_.wait(v);
    }
    for (const std::uint32_t t : sc.touched)
      p.total_excess += static_cast<double>(std::max<TimeNs>(0, sc.excess[t]));
    p.wait_excess = static_cast<double>(std::max<TimeNs>(0, p.delayer_wait - waiter_wait));
    p.total_excess += p.wait_excess;
    if (p.total_excess > 0)
      for (const std::uint32_t t : sc.touched)
        if (sc.excess[t] > 0 && sc.delayer_time[t] > 0)
          shares.push_back({t, static_cast<double>(sc.excess[t]) / p.total_excess,
                            static_cast<double>(sc.delayer_time[t])});
    p.shares = static_cast<std::uint32_t>(shares.size()) - p.first_share;
    sc.clear();
    return p;
  }

  // Attributes the wait waits_[wait], whose intervals `p` and `shares` describe: the wait and
  // what was passed on to it are spread over the delayer's segments with a positive excess,
  // in proportion to it, and over the delayer's own waits in the interval, in proportion to
  // its excess waiting.
  void attribute(std::uint32_t wait, const IntervalPlan& p, std::span<const TypeShare> shares) {
    const std::uint32_t w = waits_[wait];
    const double direct = static_cast<double>(calls_.wait(w));
    const double propagated = propagated_[wait];
    costs_.total_wait += direct;
    if (p.total_excess <= 0) {
      costs_.residual += direct + propagated;
      return;
    }
    const std::uint32_t s = calls_.waited_for(w);
    const std::uint32_t waiter_loc = calls_.call_loc(w), delayer_loc = calls_.call_loc(s);
    const std::uint32_t waiter_site = calls_.site(w);  // read once, not per segment charged
    for (const TypeShare& share : shares) {
      of_excess_[share.type] = share.of_excess;
      delayer_time_[share.type] = share.delayer_time;
    }
    for (std::uint32_t d = p.delayer_begin; d <= s; ++d) {
      const std::uint32_t t = calls_.type(d);
      if (delayer_time_[t] == 0) continue;  // no excess
      const double share =
          of_excess_[t] * static_cast<double>(calls_.segment(d)) / delayer_time_[t];
      costs_.largest_charge[d] =
          std::max(costs_.largest_charge[d], static_cast<float>(direct * share));
      costs_.short_term[d] += direct * share;
      costs_.long_term[d] += propagated * share;
      charge(d, delayer_loc, waiter_loc, waiter_site, direct * share, 0);
      if (propagated > 0)
        charge(d, delayer_loc, origin_loc_[wait], origin_site_[wait], 0, propagated * share);
    }
    for (const TypeShare& share : shares) delayer_time_[share.type] = 0;
    if (p.wait_excess > 0) {
      const double passed_on = (direct + propagated) * p.wait_excess / p.total_excess;
      // The delayer's waits in [delayer_begin, s), in call order.
      for (std::uint32_t k = first_wait_from(delayer_loc, p.delayer_begin);
           k < loc_first_wait_[delayer_loc + 1] && waits_[k] < s; ++k) {
        const TimeNs waited = calls_.wait(waits_[k]);
        const double part =
            passed_on * static_cast<double>(waited) / static_cast<double>(p.delayer_wait);
        propagated_[k] += part;
        if (part > origin_share_[k]) {
          origin_share_[k] = part;
          const bool own = direct >= propagated;
          origin_loc_[k] = own ? waiter_loc : origin_loc_[wait];
          origin_site_[k] = own ? waiter_site : origin_site_[wait];
        }
      }
    }
  }

  // Adds to the charge of the segment ending at call d, on location d_loc, for the waits at
  // call site `site` on location `wait_loc`.
  void charge(std::uint32_t d, std::uint32_t d_loc, std::uint32_t wait_loc, std::uint32_t site,
              double short_term, double long_term) {
    const std::uint32_t type = calls_.type(d);
    const ChargeKey key{pair_key(d_loc, type), pair_key(wait_loc, site)};
    const auto next = static_cast<std::uint32_t>(costs_.charges.size());
    const std::uint32_t index = charge_index_.insert(key, next);
    if (index == next) costs_.charges.push_back({d_loc, type, wait_loc, site, 0, 0});
    costs_.charges[index].short_term += short_term;
    costs_.charges[index].long_term += long_term;
  }

  Calls calls_;
  DelayCosts costs_;
  DelayHandover passed_through_;               // what concerns calls outside the window, to hand on
  std::vector<std::uint32_t> waits_;           // calls that waited, by location, call
  std::vector<std::uint32_t> loc_first_wait_;  // by location: its first in waits_
  std::vector<double> propagated_;             // by wait: waiting passed on to it, in ns
  // By wait: the location and call site of the wait its largest part came from, and that
  // part in ns.
  std::vector<std::uint32_t> origin_loc_, origin_site_;
  std::vector<double> origin_share_;
  FlatMap<ChargeKey, ChargeKeyHash> charge_index_{64};  // into costs_.charges
  WaitChunk planned_;  // waits planned ahead of their turn (plan_ahead), in order
  // By segment type, for the wait being attributed: of its types with an excess, the share of
  // the excess and the delayer's time in the interval; the delayer's time is 0 for the other
  // types, whose share is left from earlier waits and not read.
  std::vector<double> of_excess_, delayer_time_;
};

}  // namespace

std::uint32_t interval_begin(const Location& l, std::uint32_t call, std::int32_t rank,
                             const DelayOptions& options) {
  const std::uint32_t limit =
      call > options.max_interval_calls ? call - options.max_interval_calls : 0;
  for (std::uint32_t c = call; c > limit; --c)
    if (communicates_with(l, c - 1, rank)) return c;
  return limit;
}

DelayCosts delay_costs(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                       const ReplayTimes& times, const DelayOptions& options, unsigned threads) {
  DelayAnalysis analysis(WholeTraceCalls(trace, graph, types, times, options), types.types(),
                         threads);
  analysis.attribute_own([](std::uint32_t) { return true; }, threads);
  return analysis.finish();
}

struct DelaySlice::Analysis : DelayAnalysis<WindowCalls> {
  using DelayAnalysis<WindowCalls>::DelayAnalysis;
  using Order = WaitOrder<std::function<bool(std::uint32_t)>>;
  std::optional<Order> order;  // from plan_ahead to attribute
};

DelaySlice::DelaySlice(DelayWindow window, std::size_t types, unsigned threads)
    : analysis_(std::make_unique<Analysis>(WindowCalls(std::move(window)), types, threads)),
      threads_(threads) {}
DelaySlice::DelaySlice(DelaySlice&&) noexcept = default;
DelaySlice::~DelaySlice() = default;

void DelaySlice::take_over(DelayHandover in) {
  analysis_->take_over(std::move(in));
}
void DelaySlice::plan_ahead(const std::function<bool(std::uint32_t)>& own, std::size_t most_bytes,
                            const std::function<bool()>& stop) {
  if (!analysis_->order) analysis_->order.emplace(*analysis_, own);
  analysis_->plan_ahead(*analysis_->order, most_bytes, stop);
}
std::size_t DelaySlice::planned_ahead() const {
  return analysis_->planned_ahead();
}
void DelaySlice::attribute(const std::function<bool(std::uint32_t)>& own) {
  if (!analysis_->order) analysis_->order.emplace(*analysis_, own);
  analysis_->attribute_in_order(*analysis_->order, threads_);
  analysis_->order.reset();
}
DelayHandover DelaySlice::hand_back(const std::function<bool(std::uint32_t)>& before) const {
  return analysis_->hand_back(before);
}
void DelaySlice::release_waits() {
  analysis_->release_waits();
}
const DelayCosts& DelaySlice::costs() const {
  return analysis_->costs();
}
const DelayWindow& DelaySlice::window() const {
  return analysis_->calls().window();
}
TimeNs DelaySlice::segment(std::uint32_t row) const {
  return analysis_->calls().segment(row);
}

DelayWindowRuns::DelayWindowRuns(const SliceCuts& cuts) : locations(cuts.locations) {
  const std::size_t slices = cuts.slices();
  first.resize(slices * locations);
  end.resize(slices * locations);
  for (std::size_t s = 0; s < slices; ++s)
    for (std::size_t loc = 0; loc < locations; ++loc) {
      // The slice's calls and the next one, whose segment it enters.
      const std::uint32_t last = cuts.row(slices)[loc];
      first[s * locations + loc] = cuts.row(s)[loc];
      end[s * locations + loc] = std::min(cuts.row(s + 1)[loc] + 1, last);
      if (first[s * locations + loc] > end[s * locations + loc])
        end[s * locations + loc] = first[s * locations + loc];
    }
}

void DelayWindowRuns::need(std::size_t slice, std::uint32_t loc, const DelayWait& wait,
                           std::uint32_t delayer_loc) {
  const auto add = [&](std::uint32_t l, std::uint32_t from, std::uint32_t to) {
    std::uint32_t& f = first[slice * locations + l];
    std::uint32_t& e = end[slice * locations + l];
    f = std::min(f, from);
    e = std::max(e, to + 1);
  };
  add(loc, wait.waiter_begin, wait.call);
  add(delayer_loc, wait.delayer_begin, wait.waited_for);
}

void DelayWindowRuns::merge(const DelayWindowRuns& other) {
  for (std::size_t k = 0; k < first.size() && k < other.first.size(); ++k) {
    first[k] = std::min(first[k], other.first[k]);
    end[k] = std::max(end[k], other.end[k]);
  }
}

namespace {

// What the window reads of call g, when it waited.
DelayWait whole_trace_wait(const WholeTraceCalls& calls, std::uint32_t g) {
  return {.call = g,
          .site = calls.site(g),
          .waited_for = calls.waited_for(g),
          .waiter_begin = calls.waiter_begin(g),
          .delayer_begin = calls.delayer_begin(g),
          .wait = calls.wait(g),
          .leave = calls.leave(g)};
}

}  // namespace

DelayWindow delay_window(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                         const ReplayTimes& times, const DelayWindowRuns& runs, std::size_t s,
                         const DelayOptions& options) {
  const WholeTraceCalls calls(trace, graph, types, times, options);
  DelayWindow window;
  for (std::size_t loc = 0; loc < runs.locations; ++loc) {
    window.first.push_back(runs.first[s * runs.locations + loc]);
    window.end.push_back(runs.end[s * runs.locations + loc]);
    for (std::uint32_t g = window.first.back(); g < window.end.back(); ++g) {
      window.segment.push_back(calls.segment(g));
      window.type.push_back(calls.type(g));
      if (calls.wait(g) > 0) window.waits.push_back(whole_trace_wait(calls, g));
    }
  }
  return window;
}

DelayCosts delay_costs_in_slices(const Trace& trace, const ReplayGraph& graph,
                                 const SegmentTypes& types, const ReplayTimes& times,
                                 const SliceCuts& cuts, const DelayOptions& options,
                                 unsigned threads, const PlanAhead& ahead) {
  const std::vector<std::uint32_t> slice = slice_of_calls(graph, cuts);
  // Each slice's window: its own runs, and what its waits read.
  DelayWindowRuns runs(cuts);
  {
    const WholeTraceCalls calls(trace, graph, types, times, options);
    for (std::uint32_t g = 0; g < graph.calls(); ++g)
      if (calls.wait(g) > 0)
        runs.need(slice[g], graph.call_loc[g], whole_trace_wait(calls, g),
                  graph.call_loc[calls.waited_for(g)]);
  }
  return attribute_slices_in_turn(
      cuts.slices(), graph.calls(), types.types(),
      [&](std::size_t s) { return delay_window(trace, graph, types, times, runs, s, options); },
      [&](std::uint32_t g) { return slice[g]; },
      [&](std::uint32_t g) { return entered_in(graph, slice, g); }, threads, ahead);
}

DelayCosts attribute_slices_in_turn(std::size_t slices, std::size_t calls, std::size_t types,
                                    const std::function<DelayWindow(std::size_t)>& window_of,
                                    const std::function<std::uint32_t(std::uint32_t)>& slice_of,
                                    const std::function<std::uint32_t(std::uint32_t)>& entered_in,
                                    unsigned threads, const PlanAhead& ahead) {
  DelayCosts result;
  result.short_term.assign(calls, 0);
  result.long_term.assign(calls, 0);
  result.largest_charge.assign(calls, 0);
  DelayHandover handed;
  for (std::size_t s = slices; s-- > 0;) {
    DelaySlice part(window_of(s), types, threads);
    const auto own = [&](std::uint32_t g) { return slice_of(g) == s; };
    if (s + 1 < slices) {
      std::size_t rounds = 0;
      part.plan_ahead(own, ahead.most_bytes, [&] { return rounds++ == ahead.rounds; });
    }
    part.take_over(std::move(handed));
    part.attribute(own);
    // The segments entered in this slice have had every charge: a wait charges only segments
    // that begin before it ends, and the waits of the earlier slices, still to come, end
    // before this slice's segments begin.
    const DelayCosts& costs = part.costs();
    const DelayWindow& window = part.window();
    std::uint32_t r = 0;
    for (std::size_t loc = 0; loc < window.first.size(); ++loc)
      for (std::uint32_t g = window.first[loc]; g < window.end[loc]; ++g, ++r)
        if (entered_in(g) == s) {
          result.short_term[g] = costs.short_term[r];
          result.long_term[g] = costs.long_term[r];
          result.largest_charge[g] = costs.largest_charge[r];
        }
    result.waits += costs.waits;
    if (s == 0) {
      result.total_wait = costs.total_wait;
      result.residual = costs.residual;
      result.charges = costs.charges;
    } else {
      handed = part.hand_back([&](std::uint32_t g) { return entered_in(g) < s; });
    }
  }
  return result;
}

}  // namespace collwrap
