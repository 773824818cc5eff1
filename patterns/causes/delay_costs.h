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

DelayCosts delay_costs(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types,
                       const ReplayTimes& times, const DelayOptions& options = {});

// The same in slices of time (replay_slices.h), cut at the Leaves of `times`
// (cut_at_replayed_leaves), from the last slice to the first, as the processes of a divided
// analysis would go. A wait is attributed in its slice; the segments and waits it charges end
// before it, so belong to its slice or earlier ones. Each slice reads of the earlier ones only
// the calls back to its waits' synchronization intervals, and hands the slice before it what
// its waits charged to that one and earlier ones, with the sums (total wait, residual, the
// caused waits), which that slice goes on adding to: the same costs as delay_costs, to the
// bit.
DelayCosts delay_costs_in_slices(const Trace& trace, const ReplayGraph& graph,
                                 const SegmentTypes& types, const ReplayTimes& times,
                                 const SliceCuts& cuts, const DelayOptions& options = {});

}  // namespace collwrap
