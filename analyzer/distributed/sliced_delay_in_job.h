// The delay costs of a divided analysis in slices of time over the processes of the job
// (sliced_delay.h says what each step computes; this moves it between the processes). Every
// process of the job calls it; a failure throws on the process where it happens, whose caller
// ends the job (end_job_after).
#pragma once

#include <functional>
#include <memory>

#include "delay_costs.h"
#include "sliced_replay_in_job.h"

namespace collwrap {

struct JobDelayCosts {
  SliceCuts cuts;  // the delay analysis's slices, at the replayed Leaves: the job's
  // This process's slice: its window's rows and their costs. The costs of the calls entered in
  // the slice (SliceIndex::entered_in of `cuts`) are final.
  std::unique_ptr<DelaySlice> slice;
  // The sums: waits, total_wait and residual alike on every process; the charges, in the order
  // first charged, on process 0 (empty elsewhere). No per-call costs.
  DelayCosts totals;
};

// The delay costs of the job's latest replay, which must be the one as recorded
// (replay_recorded_in_job, or replay_in_job as recorded), whose times go once their holders
// have them (replay it again to read them). `held`: this process's share, which `slice` was
// made from; its ops and each call's first op go once the synchronization intervals are
// found (of the share, the steps after read only each call's call site).
//
// The attribution goes from the last process to the first, each waiting for the one after it.
// `beside_the_chain`, when given, is run in that time: by every process but the last before
// its delay slice is made (whose tables then take its pages again), and by the last once it
// has handed its slice's costs back and freed what it kept of its waits.
JobDelayCosts delay_costs_in_job(JobSlice& slice, HeldShare& held, const DelayOptions& options = {},
                                 const std::function<void()>& beside_the_chain = {});

}  // namespace collwrap
