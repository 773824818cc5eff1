// Post-mortem clock repair: the controlled logical clock (CLC) of Rabenseifner, as used by
// Scalasca (Becker, Rabenseifner, Wolf, Linford 2009).
//
// After the reader has applied the archive's clock offsets, some clock-condition violations
// may remain (see MatchCounts::clock_violations): a receive that completed before its send
// started, or a collective member that left before a member it depends on entered. Each pass
// moves events forward only:
//   forward: every event on a location gets
//       max(own time, previous + min(δ, original interval), previous + γ·original interval,
//           for a receive: send + minimal latency,
//           for a collective exit: latest entry it depends on + minimal latency);
//   backward amortization: a jump is spread over the events before it, each earlier event
//       being shifted by at least the next one's shift minus `amortization_slope`·interval, so
//       that the local interval right before a corrected receive is not inflated; a send (or a
//       collective entry) is never shifted past its receive (exit) minus the minimal latency.
// γ starts at 0.99999 and falls (0.9999, 0.999, then ×0.9) on every further pass, until no
// violation is left or `max_passes` is reached. Each pass is O(events + matched operations).
//
// Memory: the repaired times are kept as shifts from the times as read, 2 bytes per event, or
// 4 or 8 when an event moves by more than 65 µs or 4.3 s (the repair then starts again with the
// wider shifts); twice that from the second pass on. The bounds take 8 bytes per message and 16
// per collective member.
//
// δ is applied only where the original interval was positive: a location's OTF2 timestamps
// may be equal (an MPI record and its call's Leave share a tick), and forcing δ between them
// would move events that violate nothing.
#pragma once

#include <cstdint>

#include "matching.h"
#include "trace_model.h"

namespace collwrap {

struct ClockRepairOptions {
  TimeNs min_event_gap = 1;  // δ, ns
  // Minimal message latency. Locations on one node talk through shared memory (Scalasca's
  // 0.1 µs); a trace does not say which transport a message took, so Scalasca's 1 µs
  // intra-node figure for other transports is not used. Between nodes: 3 µs.
  TimeNs latency_same_node = 100;
  TimeNs latency_between_nodes = 3000;
  double amortization_slope = 0.01;  // backward shifts change intervals by at most 1 %
  unsigned max_passes = 20;
};

struct ClockRepairReport {
  std::uint64_t violations_before = 0;
  std::uint64_t violations_after = 0;
  unsigned passes = 0;
  TimeNs max_shift = 0;  // largest forward move of a single event, ns
};

// What the repair needs when the processes of a job each hold a share of the trace's locations
// and ghosts of the others' events (analyzer/distributed): each repairs the locations it
// holds, and after each forward and each backward pass every ghost takes its holder's shifts,
// so that the next bounds read the times the whole trace's repair would read. Its
// implementation sends them between the processes; every process calls each function
// together with the others.
class ClockRepairShares {
 public:
  virtual ~ClockRepairShares() = default;
  virtual LocationRange held() const = 0;
  // Every ghost location's shifts, one per event of the ghost in sequence order (per call its
  // Enter, its ops, its Leave), replaced by its holder's of the same events.
  virtual void share(std::vector<std::vector<std::uint16_t>>& shifts) = 0;
  virtual void share(std::vector<std::vector<std::uint32_t>>& shifts) = 0;
  virtual void share(std::vector<std::vector<TimeNs>>& shifts) = 0;
  // Over every process.
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  virtual TimeNs max(TimeNs value) = 0;
  virtual bool all(bool value) = 0;
};

// Moves call_enter, call_leave and op_time of `trace` in place (each location keeps its event
// order, so `matching` stays valid; its clock_violations count is the "before" figure only
// for the original times). Fills trace.clock's violation and shift figures. Does nothing
// when there are no violations.
// The passes work location by location, and the collectives' bounds instance by instance, on
// `threads` threads (0: one per core); the result does not depend on their number. With `shares`, the process repairs its held locations and
// its ghosts as the whole trace's repair would (the counts and figures are the job's), and
// runs even without violations of its own: the caller knows whether the job has any.
ClockRepairReport repair_clocks(Trace& trace, const Matching& matching,
                                const ClockRepairOptions& options = {}, unsigned threads = 1,
                                ClockRepairShares* shares = nullptr);

}  // namespace collwrap
