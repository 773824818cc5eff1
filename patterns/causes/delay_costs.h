// Delay analysis: which compute segments caused the waiting, directly and through other ranks
// (Böhme, Geimer, Wolf, Arnold, Wylie and Hermanns, "Identifying the root causes of wait states
// in large-scale parallel applications", ICPP 2010, and ACM TOPC 2016).
//
// A wait is a call that the replay shows waiting for the Enter of a call on another location
// (late sender, late receiver of a synchronous send, the last member of a collective, ...).
// Its synchronization interval on each side runs from the previous call that communicated
// between the two locations (a point-to-point record with the other rank, or any collective)
// to the calls of the wait. Per segment type, the delayer's time in the interval minus the
// waiter's is the excess; the wait is spread over the delayer's segments with a positive
// excess in proportion to it. When the delayer itself waited in the interval longer than the
// waiter did, that excess waiting is not a root cause: its share of the wait is propagated to
// the delayer's own waits and attributed with them, as a long-term cost.
//
// Short-term cost of a segment: waits it caused directly. Long-term cost: waits caused through
// the chain of waits it propagated to. The waits are processed from the last to finish to the
// first, so propagated time always reaches an earlier wait. Every wait second ends up in a
// segment's cost or in the residual (intervals without excess on the delayer's side: transfer
// time, clock error), so short + long + residual = total wait.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "compute_segments.h"
#include "replay.h"
#include "replay_slices.h"

namespace collwrap {

// The cost one segment type on one location was charged for the waits at one call site on
// another location: which waits a root cause causes. A long-term cost names the wait where the
// propagated time started (the larger contributor when several met).
struct WaitCharge {
  std::uint32_t segment_loc = 0, segment_type = 0;
  std::uint32_t wait_loc = 0, wait_site = kNone;  // call site index, or kNone
  double short_term = 0, long_term = 0;           // ns
};

struct DelayCosts {
  // By global call id: cost of the compute segment that ends at the call's Enter, in ns.
  std::vector<double> short_term;
  std::vector<double> long_term;
  // By global call: the largest short-term cost one wait charged to the segment before it
  // (ns). Cutting the segment by this much takes that wait away: the estimate for code that
  // no other rank runs, so that there is no mean to compare with.
  std::vector<float> largest_charge;
  double total_wait = 0;  // ns, over all waits
  double residual = 0;    // ns of waiting not attributed to a segment
  std::uint64_t waits = 0;
  std::vector<WaitCharge> charges;  // one per (segment type and location, wait site and location)
};

struct DelayOptions {
  // How far back (in calls) a synchronization interval is searched for; longer ones start there.
  std::uint32_t max_interval_calls = 4096;
};

// On `threads` threads (0: every core), the result the same, to the bit, as on one.
DelayCosts delay_costs(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                       const ReplayTimes& times, const DelayOptions& options = {},
                       unsigned threads = 1);

// A call that waited, as one slice of time of the delay analysis reads it, whoever holds the
// call (a divided analysis's processes each attribute one slice, from what their holders
// send). Global call ids.
struct DelayWait {
  std::uint32_t call = 0;
  std::uint32_t site = kNone;        // the call's call site
  std::uint32_t waited_for = kNone;  // the call whose Enter it waited for
  // The first calls of the synchronization interval that ends at it, towards the waited-for
  // call's rank, and of the one that ends at the waited-for call, towards this call's rank
  // (interval_begin).
  std::uint32_t waiter_begin = 0, delayer_begin = 0;
  TimeNs wait = 0;   // how long, in the replay
  TimeNs leave = 0;  // replayed
};

// The calls one slice of the delay analysis reads: of each location a run [first, end) of
// consecutive calls (global ids); by row (the runs' calls location by location) the compute
// segment before the call and its type; and the calls among them that waited, by call. Most
// calls do not wait: 12 bytes per call, and 40 per wait.
struct DelayWindow {
  std::vector<std::uint32_t> first, end;  // by location
  std::vector<TimeNs> segment;            // by row
  std::vector<std::uint32_t> type;        // by row
  std::vector<DelayWait> waits;           // by call
  std::size_t rows() const { return type.size(); }
};

// The first call (index on location l) of the synchronization interval that ends at its call
// `call`, towards `rank`: the call after the last one before it that communicates with the
// rank (a point-to-point record with it, or any collective), at most max_interval_calls back.
std::uint32_t interval_begin(const Location& l, std::uint32_t call, std::int32_t rank,
                             const DelayOptions& options);

// What the waits of the slices of time after one hand it back: the costs they charged to
// segments entered before it, the waiting they passed on to its waits and earlier ones (by
// global call), and the sums they added to, to be added to in the same order.
struct DelayHandover {
  struct Segment {
    std::uint32_t call = 0;
    double short_term = 0, long_term = 0;
    float largest_charge = 0;
  };
  struct Wait {
    std::uint32_t call = 0;
    double propagated = 0;
    // The wait its largest part came from: its location (kNone: none yet) and call site.
    std::uint32_t origin_loc = kNone, origin_site = kNone;
    double origin_share = 0;
  };
  std::vector<Segment> segments;
  std::vector<Wait> waits;
  std::vector<WaitCharge> charges;  // in the order they were first charged
  double total_wait = 0, residual = 0;
};

// One slice of time of the delay analysis, from its window: it goes on from what the slices
// after it hand back, attributes its own waits (those that leave in it), and hands the slice
// before it what they charged to that one and earlier ones. A wait charges only segments that
// begin before it ends and passes waiting on only to waits that end before it, so that
// attributed from the last slice to the first, each from its window and the handovers, the
// waits cost what delay_costs gives them, to the bit.
class DelaySlice {
 public:
  // Its tables are made, and its waits' intervals found, on `threads` threads side by side.
  DelaySlice(DelayWindow window, std::size_t types, unsigned threads = 1);
  DelaySlice(DelaySlice&&) noexcept;
  ~DelaySlice();

  // Takes over what the slice after handed back; what concerns calls outside the window is
  // handed on as it came.
  void take_over(DelayHandover in);
  // Reads the synchronization intervals of the window's first waits to attribute (those `own`
  // selects, as attribute() will) ahead of their turn, before take_over, while the slices
  // after it are attributed: until `stop()` says the handover is there, or until what is
  // read would take more than `most_bytes`.
  void plan_ahead(const std::function<bool(std::uint32_t)>& own, std::size_t most_bytes,
                  const std::function<bool()>& stop);
  std::size_t planned_ahead() const;
  // Attributes the window's waits that `own` (a global call) selects, from the last to
  // finish to the first; after plan_ahead, `own` must be the same.
  void attribute(const std::function<bool(std::uint32_t)>& own);
  // What is handed back to the slice before: of the segments and waits that `before` (a
  // global call) selects, and the sums.
  DelayHandover hand_back(const std::function<bool(std::uint32_t)>& before) const;
  // Frees what only attributing and handing back read: the waits and what was passed on to
  // them. The costs by row and the window's rows stay.
  void release_waits();

  // The window's costs by row (short_term, long_term, largest_charge), the sums so far, and
  // the number of waits `attribute` attributed.
  const DelayCosts& costs() const;
  // The window's runs, types and waits; its segments are kept in the slice's own column, of
  // 4 bytes a row for most, and read with segment().
  const DelayWindow& window() const;
  TimeNs segment(std::uint32_t row) const;

 private:
  struct Analysis;
  std::unique_ptr<Analysis> analysis_;
  unsigned threads_;
};

// The slices of a delay analysis attributed one after another in one process, from the last to
// the first, slice s from window_of(s) and what the slices after it hand back, as the processes
// of a divided analysis go; every call's costs (by global id, of the `calls`) taken from the
// slice that enters it (entered_in(call)), the sums from the first slice. slice_of(call): the
// slice a wait belongs to. Each slice on `threads` threads, as a process of a job has.
//
// With `ahead`, each slice but the last first plans its waits ahead (DelaySlice::plan_ahead)
// within ahead.most_bytes, stopped after ahead.rounds rounds, as a process of a job does while
// the processes after it attribute theirs.
struct PlanAhead {
  std::size_t most_bytes = 0, rounds = 0;
};
DelayCosts attribute_slices_in_turn(std::size_t slices, std::size_t calls, std::size_t types,
                                    const std::function<DelayWindow(std::size_t)>& window_of,
                                    const std::function<std::uint32_t(std::uint32_t)>& slice_of,
                                    const std::function<std::uint32_t(std::uint32_t)>& entered_in,
                                    unsigned threads = 1, const PlanAhead& ahead = {});

// The same as delay_costs in slices of time cut at the Leaves of `times`
// (cut_at_replayed_leaves), from the last slice to the first, each slice a DelaySlice of its
// own from its window (delay_window) and what the slices after it hand back, as the processes
// of a divided analysis go.
DelayCosts delay_costs_in_slices(const Trace& trace, const ReplayGraph& graph,
                                 const SegmentTypes& types, const ReplayTimes& times,
                                 const SliceCuts& cuts, const DelayOptions& options = {},
                                 unsigned threads = 1, const PlanAhead& ahead = {});

// The runs of calls each slice of the delay analysis reads, by slice and location (rows of
// `locations` entries, as SliceCuts): at least the calls whose segments the slice owns (those
// entered in it) and the slice's own calls; each of its waits adds the calls back to its two
// synchronization intervals and up to the call it waited for.
struct DelayWindowRuns {
  std::size_t locations = 0;
  std::vector<std::uint32_t> first, end;  // row t: slice t's runs
  explicit DelayWindowRuns(const SliceCuts& cuts);
  // Adds what `wait`, of slice `slice` and on location `loc`, needs.
  void need(std::size_t slice, std::uint32_t loc, const DelayWait& wait, std::uint32_t delayer_loc);
  // Adds what another holder's waits need.
  void merge(const DelayWindowRuns& other);
};

// Slice s's window from the whole trace and its replay.
DelayWindow delay_window(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                         const ReplayTimes& times, const DelayWindowRuns& runs, std::size_t s,
                         const DelayOptions& options = {});

}  // namespace collwrap
