// The replays of a divided analysis in slices of time (replay_slices.h), one slice per process:
// what each process computes and sends so that slice s's process holds slice s's graph and
// replays it from what slice s - 1's process hands over. Without MPI, so that a job can be
// played out in one process by the tests; sliced_replay_in_job.h moves the pieces between the
// processes.
//
//   1. facts: each process's holder_facts, merged (merge_facts), make the WholeTraceFacts;
//      each makes the rows of its own locations (graph_rows);
//   2. cuts: each samples the recorded Leaves of its calls (leave_samples), all samples make
//      the instants (cut_instants), each cuts its own locations there (cut_held_locations),
//      and the cuts of all processes, added up (merge_cuts), are the job's;
//   3. each finds the slices whose calls wait for each collective instance (gated_slices,
//      merged), and sends each slice's process its rows of the slice (rows_for_slice): of each
//      of its locations the slice's calls and the next, the members of the instances the
//      slice waits for; each slice's process puts them together (merge_slice_rows);
//   4. each slice's process checks that every Enter its calls wait for was set in it or an
//      earlier slice (the clock condition across the cuts), finds the calls it reads whose
//      Enters earlier slices set (both earlier_reads), and from the last slice
//      to the first each hands the one before what it and the later slices need
//      (handed_into); then, from the first to the last, each hands the next the compute
//      segments of those calls (segments_to_hand), builds its graph (slice_graph_from_rows)
//      and can replay it (replay_slice) as often as asked.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "graph_rows.h"
#include "replay_slices.h"

namespace collwrap {

// The process whose share holds location `loc`.
std::size_t holder_of(const std::vector<LocationRange>& shares, std::uint32_t loc);

// The slice of a global call and the slice that enters it, from the cuts.
class SliceIndex {
 public:
  SliceIndex(const WholeTraceFacts& facts, const SliceCuts& cuts);
  TimeNs begin() const { return facts_.begin; }
  std::uint32_t location_of(std::uint32_t g) const;
  std::uint32_t location_end(std::uint32_t loc) const { return facts_.loc_first_call[loc + 1]; }
  // The first call of location `loc` after slice s.
  std::uint32_t slice_end(std::uint32_t s, std::uint32_t loc) const {
    return cuts_.row(s + 1)[loc];
  }
  std::uint32_t slice_of(std::uint32_t g) const { return slice_at(g, location_of(g)); }
  // The slice of the call before g on its location (replay_slices.h: entered_in).
  std::uint32_t entered_in(std::uint32_t g) const;
  // The calls of location `loc` that slice s enters, [first, end): its own but its first (which
  // an earlier slice enters, unless s is 0) and the first of the next.
  std::pair<std::uint32_t, std::uint32_t> entered_calls(std::uint32_t s, std::uint32_t loc) const;

 private:
  // The slice of call g of location `loc`.
  std::uint32_t slice_at(std::uint32_t g, std::uint32_t loc) const;

  // The analysis asks for a call's location at every wait, gate and window row: a search of the
  // locations' first calls from the location of the call's block of kBlockCalls calls takes a
  // step or two where a binary search over every location took six or more.
  static constexpr unsigned kBlockBits = 12;
  const WholeTraceFacts& facts_;
  const SliceCuts& cuts_;
  std::vector<std::uint32_t> block_location_;  // by block: the location of its first call
};

// A Leave by global call: of the calls as recorded (recorded_leaves), or as replayed.
using LeaveOf = std::function<TimeNs(std::uint32_t)>;
// The recorded Leaves of the calls of `trace`'s held locations.
LeaveOf recorded_leaves(const Trace& trace, const WholeTraceFacts& facts);

// Every how many of `count` calls one is sampled, for at most `most` samples.
std::size_t sample_step(std::size_t count, std::size_t most);
// Up to `most` Leaves of the `held` locations' calls, evenly spread over them.
std::vector<TimeNs> leave_samples(const WholeTraceFacts& facts, const LocationRange& held,
                                  const LeaveOf& leave_of, std::size_t most = 4096);
// The instants that divide the samples of all processes into `slices` parts.
std::vector<TimeNs> cut_instants(std::vector<TimeNs> samples, std::size_t slices);
// The cuts of the `held` locations at `instants` (each at its first call whose Leave is at or
// after the instant); zeros for the other locations.
SliceCuts cut_held_locations(const WholeTraceFacts& facts, const LocationRange& held,
                             const std::vector<TimeNs>& instants, const LeaveOf& leave_of);
// Adds another process's cuts.
void merge_cuts(SliceCuts& into, const SliceCuts& part);

// By global instance, the slices [lowest, end) of the calls that wait for it (none: lowest
// kNone, end 0), so that two processes' are merged by the least lowest and the greatest end.
struct GatedSlices {
  std::vector<std::uint32_t> lowest, end;
};
GatedSlices gated_slices(const GraphRows& rows, const SliceIndex& index, std::size_t instances);
void merge_gated_slices(GatedSlices& into, const GatedSlices& part);

// What a holder of the rows of some locations sends slice s's process: of its locations the
// slice's calls and the next (the others' left empty), and the members of every instance that
// a call of the slice waits for.
SliceRows rows_for_slice(const GraphRows& rows, const LocationRange& held, const SliceCuts& cuts,
                         const GatedSlices& gated, const SliceIndex& index, std::size_t s);
// The parts of rows_for_slice, for a sender that sends its rows from where they lie: the calls
// [first, end) (global ids) of location `loc` whose rows slice s gets, and the members.
std::pair<std::uint32_t, std::uint32_t> slice_calls(const SliceCuts& cuts, std::size_t s,
                                                    std::size_t loc);
std::vector<GraphRows::Member> slice_members(const GraphRows& rows, const GatedSlices& gated,
                                             std::size_t s);
// The entries of a list of long segments or own costs (GraphRows) of the calls [first, end).
std::vector<std::pair<std::uint32_t, TimeNs>> long_costs_between(
    const std::vector<std::pair<std::uint32_t, TimeNs>>& list, std::uint32_t first,
    std::uint32_t end);
// Adds the rows a holder of `held` sent.
void merge_slice_rows(SliceRows& into, SliceRows&& part, const LocationRange& held);
// Adds the members a holder sent (both by instance, then position).
void merge_slice_members(SliceRows& into, std::span<const GraphRows::Member> part);

// What slice s reads (its own calls, the calls they wait for, the members of the instances they
// wait for) of the Enters other slices set.
struct EarlierReads {
  // Whether each is set in slice s or an earlier one.
  bool replayable = true;
  // The calls whose Enters earlier slices set, ascending.
  std::vector<std::uint32_t> entered_before;
};
EarlierReads earlier_reads(const SliceRows& rows, const SliceCuts& cuts, std::size_t s,
                           const SliceIndex& index);
// The calls slice s - 1 hands slice s: those slice s reads (earlier_reads) and those the
// slices after it need (`into_next`, handed_into of s + 1) that were entered before s.
std::vector<std::uint32_t> handed_into(std::vector<std::uint32_t> needs,
                                       const std::vector<std::uint32_t>& into_next, std::size_t s,
                                       const SliceIndex& index);
// The compute segments (and their types) of `hand_on` (global ids, ascending) that slice s hands
// the next: of its calls from its rows, of the others from what the slice before handed.
std::vector<HandedCall> segments_to_hand(const SliceRows& rows,
                                         std::span<const std::uint32_t> hand_on,
                                         const SliceIndex& index);

}  // namespace collwrap
