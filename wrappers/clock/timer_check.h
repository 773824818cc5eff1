// MPIPerf's timer self-tests on the tracer's own timer and clock synchronization, shared by
// collwrap-timercheck and `collwrap-bench timer`:
//   WaitPatternNull: all ranks start at a common global time T and stop at once; the result,
//     max over ranks of (end − T), should be 0.
//   WaitPatternUp: rank i spins until T + (i+1)·U by the global clock; the result should be n·U.
// Late starts (a rank whose global clock runs behind, or the broadcast of T arriving late) and
// a timer whose reads are slow or jumpy show up as deviations. Offsets are also re-measured
// directly against rank 0 (linear ping-pong) right after the synchronization: the difference is
// the residual error of the chosen algorithm.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "clock/timer_check_verdict.h"
#include "record/tracer_config.h"

namespace collwrap::tracer {

struct TimerCheckOptions {
  ClockSyncKind sync = ClockSyncKind::Auto;
  std::uint32_t patience = 30;  // min-RTT rule: exchanges without improvement before stopping
  int repeat = 30;              // runs of each pattern
  double unit_us = 10;          // WaitPatternUp's U
};

// What rank 0 measured and concluded, for machine-readable output.
struct TimerCheckOutcome {
  int ranks = 0;
  const char* timer = "";
  double ticks_per_second = 0;
  const char* sync = "";
  double sync_ms = 0;  // slowest rank's synchronization time
  TimerCheckFigures figures;
  TimerCheckVerdict verdict;
};

// Collective over `comm`; the timer must have been selected. Rank 0 prints the report on stdout,
// its first line starting with `program`, and fills `outcome` when given. Returns the exit
// status (0: the check ran; the verdict is in the report).
int run_timer_check(const char* program, const TimerCheckOptions& options, MPI_Comm comm,
                    TimerCheckOutcome* outcome = nullptr);

}  // namespace collwrap::tracer
