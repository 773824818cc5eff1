// The replays of a divided analysis in slices of time over the processes of the job: process s
// holds slice s's graph and replays it from what process s - 1 hands over (sliced_replay.h
// says what each step computes; this moves it between the processes). Every process of the job
// calls each function; a failure throws on the process where it happens, whose caller ends the
// job (end_job_after), as analyze_in_job does.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "analysis_in_job.h"
#include "byte_exchange.h"
#include "compute_segments.h"
#include "critical_path.h"
#include "critical_path_share.h"
#include "pop_efficiency.h"
#include "replay_slices.h"

namespace collwrap {

// This process's slice, ready to be replayed as often as asked.
struct JobSlice {
  unsigned threads = 1;                  // this process's (--threads; 0: one per core it has)
  WholeTraceFacts facts;                 // the job's, every process's alike
  SliceCuts cuts;                        // the job's, every process's alike
  bool refused = false;                  // the clock condition does not allow the cut: no graph
  std::vector<std::uint32_t> handed_in;  // the calls whose Enters the slice before hands over
  SliceHandover recorded_handed_in;      // their Enters as recorded, in that order
  std::vector<std::uint32_t> handed_on;  // those this slice hands the next
  std::vector<PopLocation> pop;          // every main thread's, in location order
  // The compute segment types as the whole trace numbers them (without type_of_call: the
  // slice's graph has its calls'), and by type its segments' total length over every call.
  SegmentTypes types;
  std::vector<TimeNs> type_time;
  // This process's locations' rows: their compute segments and the segments' types (without
  // gates or members).
  GraphRows own_rows;
  // The slice's graph, and its latest replay's times (which point at the graph: not moved).
  std::unique_ptr<ReplaySlice> replay = std::make_unique<ReplaySlice>();
  // The last slice's of a job of more than one: the order in which its replay as recorded
  // processed the calls, in whose reverse the ends of its what-if replays are found.
  ReplaySchedule schedule;
};

// The instants that cut the run into one slice per process, from every process's samples of
// Leaves (`mine`, this process's).
std::vector<TimeNs> instants_in_job(const std::vector<TimeNs>& mine, int processes);

// Every process of the job, with what it holds: the slices are cut where samples of all
// processes' recorded Leaves divide them evenly, one per process. Of the share, only the
// definitions and what the later steps read stay (each call's call site and ops, of the ops
// their kind and peer). The later steps run on `threads` threads where their work divides.
JobSlice slice_in_job(const MpiJob& job, HeldShare& held, unsigned threads);

// Replays the job's run as `options` says, slice after slice (a slice's process waits for the
// one before); this process's times go to slice.replay->times. The analysis replays through
// replay_recorded_in_job and replay_ideal_in_job below; this one replay at a time is what the
// sliced replay check compares with the whole trace's, network by network. Returns the run's end,
// and adds the dependencies ignored to resolve a cycle to `broken_gates`, alike on every process.
TimeNs replay_in_job(JobSlice& slice, const ReplayOptions& options, std::uint64_t& broken_gates);

}  // namespace collwrap

namespace collwrap {

// The critical path of the job's latest replay (as recorded), walked from the
// last slice to the first: each process walks its stretch (walk_slice_back), visiting its
// steps, and hands the process before it the call the path goes on from with the totals so
// far. Returns the totals, alike on every process.
CriticalPathTotals walk_critical_path_in_job(
    const JobSlice& slice, const std::function<void(const CriticalPathStep&)>& visit);

}  // namespace collwrap

namespace collwrap {

// A replay's times at the ends of the POP intervals (counted_intervals of slice.pop), which the
// processes that leave those calls know, alike on every process. `times`: of this process's
// slice.
class PopTimes {
 public:
  TimeNs operator()(std::uint32_t call, bool leave) const;
  // Those this process's slice knows, the others' unknown until share() (every process calls
  // it) fills them in.
  static PopTimes of_slice(const JobSlice& slice, const ReplayTimes& times);
  void share();

 private:
  std::vector<std::pair<std::uint32_t, bool>> ends_;  // (call, leave), ascending
  std::vector<TimeNs> times_;
};

// The replay as recorded: each process but the first replays its slice at once, from the
// recorded Enters of the calls it is handed (the replay as recorded gives the recorded times
// wherever the clock condition holds), and again if the slice before hands over other Enters.
// Its times go to slice.replay->times, as replay_in_job's; its POP times, the run's end and
// the dependencies ignored to resolve a cycle, alike on every process.
struct RecordedReplay {
  TimeNs end = 0;
  std::uint64_t broken_gates = 0;
  PopTimes pop;
};
RecordedReplay replay_recorded_in_job(JobSlice& slice);

// The replay on an ideal network, from process to process: this process's slice from the
// Enters the one before hands on; those it hands the next go to `hand_on`, not waited for,
// since the next may replay its slice much later (the job's last process replays it while the
// others attribute their delay slices). The POP times this process's slice knows, which
// PopTimes::share completes once every process has replayed.
PopTimes replay_ideal_in_job(const JobSlice& slice, PendingSend& hand_on);

}  // namespace collwrap

namespace collwrap {

// The critical path of the job's latest replay (as recorded) summed per segment type and call
// site, as the analyzer alone reports it (CriticalPathTally): each process sums the steps it
// walks, and process 0 merges the sums; the summary on process 0, nullopt on the others.
// `trace`: the archive's definitions.
std::optional<CriticalPathSummary> critical_path_in_job(const JobSlice& slice, const Trace& trace,
                                                        std::size_t top);

}  // namespace collwrap

namespace collwrap {

// The ends of replays as recorded with changed segments (what-if questions), pipelined through
// the processes: each process replays its slice of the questions two to a pass, one pass after
// another, and hands each pass's on as soon as it is done, so that the processes work on
// different questions at once.
// `changes`: by question, the changed segments among this process's own locations' calls (in
// call order); they travel to the slices that enter those calls. Alike on every process.
std::vector<TimeNs> replay_questions_in_job(const JobSlice& slice,
                                            const std::vector<std::vector<ScaledSegment>>& changes);

}  // namespace collwrap
