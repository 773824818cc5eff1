// The delay costs of a divided analysis (delay_costs.h) in slices of time, one per process, cut
// at the Leaves of the replay as recorded: what each process computes and sends. Without MPI,
// so that a job can be played out in one process by the tests; delay_costs_in_job
// (sliced_delay_in_job.h) moves the pieces between the processes.
//
//   1. each process of the replay (sliced_replay.h) tells the holder of each location which of
//      the calls it left there waited, for which call, how long and when they were left
//      (replayed_waits_for_holder); each holder puts its locations' together (HeldReplay);
//   2. each process of the replay samples the replayed Leaves of its calls
//      (replayed_leave_samples); all samples cut the run again (cut_instants), each process
//      cuts the calls it left there (cut_replayed_slice) and the least of every process's cuts
//      (merge_least_cuts) are the delay analysis's slices;
//   3. each holder finds its waits' synchronization intervals (waiter_intervals): its own
//      towards the waited-for call's rank, and asks the waited-for call's holder for that
//      call's towards its rank (delayer_questions, answer_delayer_questions,
//      take_delayer_answers);
//   4. each holder marks the calls each slice's waits read (need_calls, merged by the least
//      first and greatest end), and sends each slice's process its locations' rows of the
//      slice's window (delay_rows_for_slice), which puts each in its place (place_delay_rows);
//   5. from the last slice to the first, each process attributes its slice's waits (DelaySlice)
//      and hands the one before what they charged to earlier slices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "delay_costs.h"
#include "graph_rows.h"
#include "replay_slices.h"
#include "sliced_replay.h"

namespace collwrap {

// A call that waited in the replay: for which call (global ids), how long, and when it left.
struct ReplayedWait {
  std::uint32_t call = 0, waited_for = kNone;
  TimeNs wait = 0, leave = 0;
};
// What one replay slice's process tells the holder of some locations: the calls it left there
// that waited, by call.
std::vector<ReplayedWait> replayed_waits_for_holder(const ReplaySlice& here,
                                                    const LocationRange& held);
// How many that is: the holder makes room for every slice's at once.
std::size_t replayed_wait_count_for_holder(const ReplaySlice& here, const LocationRange& held);

// What a holder knows of the replay of its locations' calls: their waits, put together from
// every slice's.
class HeldReplay {
 public:
  explicit HeldReplay(const LocationRange& held) : held_(held) {}
  // Room for `waits` in all, so that adding them copies none twice.
  void reserve(std::size_t waits) { waits_.reserve(waits); }
  // One slice's waits, in call order.
  void add(std::span<const ReplayedWait> waits);
  // Once every slice's are in: the waits in call order.
  void finish();

  const LocationRange& held() const { return held_; }
  std::vector<DelayWait>& waits() { return waits_; }
  const std::vector<DelayWait>& waits() const { return waits_; }

 private:
  LocationRange held_;
  std::vector<DelayWait> waits_;
  std::vector<std::size_t> run_starts_;  // where each add()'s waits begin, until finish()
};

// Up to `most` replayed Leaves of the calls a replay slice leaves, evenly spread over them.
std::vector<TimeNs> replayed_leave_samples(const ReplaySlice& here, std::size_t most = 4096);
// The cuts at `instants` that a replay slice's calls give: of each location, slice s > 0
// begins at its first call whose replayed Leave is at or after instants[s - 1] (a location's
// Leaves never decrease), the location's end where the replay slice leaves no such call.
SliceCuts cut_replayed_slice(const ReplaySlice& here, const WholeTraceFacts& facts,
                             const std::vector<TimeNs>& instants);
// The least of two processes' cuts.
void merge_least_cuts(SliceCuts& into, const SliceCuts& part);

// Of each wait of the holder, the waiter's synchronization interval (waiter_begin, towards the
// waited-for call's rank), from the holder's trace. `trace`: the holder's, its locations whole,
// every location's definitions.
void waiter_intervals(HeldReplay& replay, const Trace& trace, const WholeTraceFacts& facts,
                      const DelayOptions& options);

// The question a holder asks the holder of a waited-for call: that call's synchronization
// interval towards the waiter's rank.
struct DelayerQuestion {
  std::uint32_t call = 0;
  std::int32_t rank = 0;
};
// By process (the holder of the waited-for call's location, `shares`), the questions of the
// holder's waits, in the order of its waits.
std::vector<std::vector<DelayerQuestion>> delayer_questions(
    const HeldReplay& replay, const Trace& trace, const WholeTraceFacts& facts,
    const std::vector<LocationRange>& shares);
// The first calls of the intervals asked for, from the holder's trace.
std::vector<std::uint32_t> answer_delayer_questions(const std::vector<DelayerQuestion>& questions,
                                                    const Trace& trace,
                                                    const WholeTraceFacts& facts,
                                                    const DelayOptions& options);
// Sets the holder's waits' delayer_begin from the answers, by process as asked.
void take_delayer_answers(HeldReplay& replay, const WholeTraceFacts& facts,
                          const std::vector<LocationRange>& shares,
                          const std::vector<std::vector<std::uint32_t>>& answers);

// The runs of calls each delay slice reads (DelayWindowRuns), with what the holder's waits add:
// merged over the holders by the least first and the greatest end.
void need_calls(DelayWindowRuns& runs, const HeldReplay& replay, const SliceIndex& index);

// Slice s's window with its runs and room for every row and for `waits` waits, before any
// holder's are put in place.
DelayWindow empty_delay_window(const DelayWindowRuns& runs, std::size_t s, std::size_t waits);

// What a holder sends slice s's process of its locations' calls in the slice's window, in
// location order: their rows, and those of its waits.
struct DelayWindowPart {
  std::vector<TimeNs> segment;
  std::vector<std::uint32_t> type;
  std::vector<DelayWait> waits;
};
// How many waits the part has.
std::size_t delay_wait_count_for_slice(const HeldReplay& replay, const WholeTraceFacts& facts,
                                       const DelayWindowRuns& runs, std::size_t s);
// From the holder's rows (segments and their types), its trace (call sites) and its replay.
DelayWindowPart delay_rows_for_slice(const HeldReplay& replay, const GraphRows& rows,
                                     const Trace& trace, const WholeTraceFacts& facts,
                                     const DelayWindowRuns& runs, std::size_t s);

// The place in `window` of the rows of the locations `held`, and of their `waits` waits, which
// follow the `first_wait` of the holders before (a window's waits are in call order, and the
// holders' locations in location order).
struct HeldRows {
  std::span<TimeNs> segment;
  std::span<std::uint32_t> type;
  std::span<DelayWait> waits;
};
HeldRows held_rows(DelayWindow& window, const LocationRange& held, std::size_t first_wait,
                   std::size_t waits);
// Puts what a holder sent in its place.
void place_delay_rows(const HeldRows& place, const DelayWindowPart& part);

}  // namespace collwrap
