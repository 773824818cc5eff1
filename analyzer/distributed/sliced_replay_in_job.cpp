#include "sliced_replay_in_job.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <stdexcept>

#include "byte_exchange.h"
#include "byte_fields.h"
#include "memory_reuse.h"
#include "parallel_for.h"
#include "root_causes.h"
#include "slice_end_function.h"
#include "sliced_replay.h"

namespace collwrap {
namespace {

// What every process knows of the whole trace: the calls of each location (each has one
// holder), the largest instance count of each communicator, the latest Enter of MPI_Init and
// MPI_Finalize.
WholeTraceFacts facts_in_job(const HeldShare& held) {
  HolderFacts facts = holder_facts(held.part.trace, held.matching, held.part.held);
  allreduce(facts.calls, MPI_UINT32_T, MPI_SUM);
  allreduce(facts.instances, MPI_UINT32_T, MPI_MAX);
  std::vector<TimeNs> latest{facts.latest_init_enter, facts.latest_finalize_enter};
  allreduce(latest, MPI_INT64_T, MPI_MAX);
  facts.latest_init_enter = latest[0];
  facts.latest_finalize_enter = latest[1];
  return whole_trace_facts(facts);
}

// A list of (call, time) pairs, which are not trivially copyable, as two columns.
void call_times(Out& out, const std::vector<std::pair<std::uint32_t, TimeNs>>& pairs) {
  std::vector<std::uint32_t> calls;
  std::vector<TimeNs> times;
  for (const auto& [call, time] : pairs) {
    calls.push_back(call);
    times.push_back(time);
  }
  out.vector(calls);
  out.vector(times);
}
void call_times(In& in, std::vector<std::pair<std::uint32_t, TimeNs>>& pairs) {
  std::vector<std::uint32_t> calls;
  std::vector<TimeNs> times;
  in.vector(calls);
  in.vector(times);
  if (calls.size() != times.size())
    throw std::runtime_error("the calls and times sent by another process differ in number");
  pairs.clear();
  for (std::size_t k = 0; k < calls.size(); ++k) pairs.emplace_back(calls[k], times[k]);
}

// The sizes of one holder's rows of a slice, and their few long costs, sent ahead of the rows so
// that the receiver sizes its columns and MPI puts each row in its place: the rows travel as
// they lie in the holder's rows, with no copy on either side but MPI's. By held location: its
// first call, its calls, its gates, whether it has segment types, its long costs; then the
// members' count.
std::vector<char> slice_rows_header(const GraphRows& mine, const LocationRange& held,
                                    const SliceCuts& cuts, std::size_t s, std::size_t members) {
  std::vector<char> bytes;
  Out out(bytes);
  for (std::size_t loc = held.first; loc < std::min(held.end, cuts.locations); ++loc) {
    const auto [first, end] = slice_calls(cuts, s, loc);
    const std::uint32_t r0 = first - mine.first_call, r1 = end - mine.first_call;
    out.value(first);
    out.value(r1 - r0);
    out.value(mine.gate_first[r1] - mine.gate_first[r0]);
    out.value(static_cast<std::uint8_t>(!mine.segment_type.empty()));
    call_times(out, long_costs_between(mine.long_segments, first, end));
    call_times(out, long_costs_between(mine.long_own_costs, first, end));
  }
  out.value(static_cast<std::uint64_t>(members));
  return bytes;
}

// Sizes the rows of `theirs` by the header their holder sent; the members' count.
std::size_t size_slice_rows(SliceRows& rows, std::span<const char> header,
                            const LocationRange& theirs, std::size_t locations) {
  In in(header, "the sizes of the replay graph's rows of a slice");
  for (std::size_t loc = theirs.first; loc < std::min(theirs.end, locations); ++loc) {
    GraphRows& r = rows.locations[loc];
    std::uint32_t calls = 0, gates = 0;
    std::uint8_t typed = 0;
    in.value(r.first_call);
    in.value(calls);
    in.value(gates);
    in.value(typed);
    call_times(in, r.long_segments);
    call_times(in, r.long_own_costs);
    r.call_costs.resize(calls);
    r.segment_type.resize(typed ? calls : 0);
    r.gate_first.resize(std::size_t{calls} + 1);
    r.gates.resize(gates);
  }
  std::uint64_t members = 0;
  in.value(members);
  return members;
}

// This process's slice's rows, from every process's rows of its locations: K - 1 rounds of one
// partner each way.
SliceRows rows_in_job(const HeldShare& held, const GraphRows& mine, const SliceCuts& cuts,
                      const GatedSlices& gated, const SliceIndex& index) {
  const int self = this_process(), processes = process_count();
  SliceRows rows;
  merge_slice_rows(
      rows,
      rows_for_slice(mine, held.part.held, cuts, gated, index, static_cast<std::size_t>(self)),
      held.part.held);
  for (int round = 1; round < processes; ++round) {
    const int to = (self + round) % processes, from = (self - round + processes) % processes;
    const std::vector<GraphRows::Member> members =
        slice_members(mine, gated, static_cast<std::size_t>(to));
    const LocationRange& theirs = held.shares.at(static_cast<std::size_t>(from));
    std::vector<GraphRows::Member> their_members(
        size_slice_rows(rows,
                        swap_bytes(slice_rows_header(mine, held.part.held, cuts,
                                                     static_cast<std::size_t>(to), members.size()),
                                   to, from),
                        theirs, cuts.locations));
    ExchangeRound exchange;
    for (std::size_t loc = theirs.first; loc < std::min(theirs.end, cuts.locations); ++loc) {
      GraphRows& r = rows.locations[loc];
      exchange.receive(r.call_costs, from);
      exchange.receive(r.segment_type, from);
      exchange.receive(r.gate_first, from);
      exchange.receive(r.gates, from);
    }
    exchange.receive(their_members, from);
    for (std::size_t loc = held.part.held.first; loc < std::min(held.part.held.end, cuts.locations);
         ++loc) {
      const auto [first, end] = slice_calls(cuts, static_cast<std::size_t>(to), loc);
      const std::uint32_t r0 = first - mine.first_call, r1 = end - mine.first_call;
      const auto part = [&](const auto& column, std::uint32_t b, std::uint32_t e) {
        return std::span(column).subspan(b, e - b);
      };
      exchange.send(part(mine.call_costs, r0, r1), to);
      if (!mine.segment_type.empty()) exchange.send(part(mine.segment_type, r0, r1), to);
      exchange.send(part(mine.gate_first, r0, r1 + 1), to);
      exchange.send(part(mine.gates, mine.gate_first[r0], mine.gate_first[r1]), to);
    }
    exchange.send(members, to);
    exchange.wait();
    // Each location's gates were numbered from the holder's first row.
    for (std::size_t loc = theirs.first; loc < std::min(theirs.end, cuts.locations); ++loc) {
      std::vector<std::uint32_t>& gate_first = rows.locations[loc].gate_first;
      const std::uint32_t base = gate_first.front();
      for (std::uint32_t& g : gate_first) g -= base;
    }
    merge_slice_members(rows, their_members);
  }
  return rows;
}

std::vector<char> calls_bytes(const std::vector<std::uint32_t>& calls) {
  std::vector<char> bytes;
  Out(bytes).vector(calls);
  return bytes;
}
std::vector<std::uint32_t> read_calls(std::span<const char> bytes, const char* what) {
  std::vector<std::uint32_t> calls;
  In(bytes, what).vector(calls);
  return calls;
}
std::vector<char> call_times_bytes(const std::vector<std::pair<std::uint32_t, TimeNs>>& pairs) {
  std::vector<char> bytes;
  Out out(bytes);
  call_times(out, pairs);
  return bytes;
}
std::vector<std::pair<std::uint32_t, TimeNs>> read_call_times(std::span<const char> bytes,
                                                              const char* what) {
  std::vector<std::pair<std::uint32_t, TimeNs>> pairs;
  In in(bytes, what);
  call_times(in, pairs);
  return pairs;
}

// Every main thread's POP intervals, each process making its own locations' from its rows.
std::vector<PopLocation> pop_locations_in_job(const HeldShare& held, const WholeTraceFacts& facts,
                                              const GraphRows& mine) {
  const auto segment = [&mine](std::uint32_t g) { return mine.segment(g); };
  const auto fields = [](auto& io, auto& locations) {
    io.count(locations);
    for (auto& l : locations) {
      io.value(l.loc);
      io.value(l.rank);
      io.value(l.last_call);
      io.value(l.init_to_finalize);
      io.vector(l.pcontrol);
    }
  };
  const std::vector<PopLocation> own =
      pop_locations(held.part.trace, facts.loc_first_call, segment, held.part.held);
  std::vector<char> bytes;
  std::vector<PopLocation> all;
  for (const std::vector<char>& part : gather_bytes(to_bytes(own, fields)))
    for (PopLocation& l : from_bytes<std::vector<PopLocation>>(part, "the POP intervals", fields))
      all.push_back(std::move(l));
  if (this_process() == 0) bytes = to_bytes(all, fields);
  broadcast_bytes(bytes);
  return from_bytes<std::vector<PopLocation>>(bytes, "the POP intervals", fields);
}

const auto segment_types_fields = [](auto& io, auto& t) {
  io.vector(t.start);
  io.vector(t.finish);
  io.vector(t.start_region);
  io.vector(t.finish_region);
};

// The segment types of every process's locations, numbered as the whole trace numbers them
// (each process's merged in process order: location order); `own`, by this process's call
// from its first, gets each call's number.
SegmentTypes segment_types_in_job(const HeldShare& held, const WholeTraceFacts& facts,
                                  std::vector<std::uint32_t>& own) {
  const SegmentTypes mine = segment_types(held.part.trace, facts.loc_first_call, held.part.held);
  std::vector<char> bytes;
  const auto fields = [](auto& io, auto& merged) {
    segment_types_fields(io, merged.first);
    io.count(merged.second);
    for (auto& numbers : merged.second) io.vector(numbers);
  };
  using Merged = std::pair<SegmentTypes, std::vector<std::vector<std::uint32_t>>>;
  const std::vector<std::vector<char>> parts = gather_bytes(to_bytes(mine, segment_types_fields));
  if (this_process() == 0) {
    Merged merged;
    for (const std::vector<char>& part : parts)
      merged.second.push_back(merge_segment_types(
          merged.first,
          from_bytes<SegmentTypes>(part, "the compute segment types", segment_types_fields)));
    bytes = to_bytes(merged, fields);
  }
  broadcast_bytes(bytes);
  Merged merged = from_bytes<Merged>(bytes, "the compute segment types", fields);
  const std::vector<std::uint32_t>& number =
      merged.second.at(static_cast<std::size_t>(this_process()));
  own.resize(mine.type_of_call.size());
  for (std::size_t c = 0; c < own.size(); ++c) own[c] = number[mine.type_of_call[c]];
  return std::move(merged.first);
}

// By type, its segments' total length over every call.
std::vector<TimeNs> type_time_in_job(const GraphRows& mine, std::size_t types) {
  std::vector<TimeNs> total(types, 0);
  for (std::uint32_t r = 0; r < mine.calls(); ++r) {
    total[mine.segment_type[r]] += mine.segment(mine.first_call + r);
  }
  allreduce(total, MPI_INT64_T, MPI_SUM);
  return total;
}

// Frees what the steps after the slicing do not read of the share: the matching, the digests,
// the other locations' ghosts, and of this process's locations all but what the delay
// costs' synchronization intervals and the what-if questions read (each call's call site and
// ops, of the ops their kind and peer). With `keep_enters`, the calls' Enters stay, for
// recorded_enters_in_job, which frees them.
void release_share_for_sliced_steps(HeldShare& held, bool keep_enters) {
  held.matching = {};
  held.digests.reset();
  Trace& trace = held.part.trace;
  for (std::size_t loc = 0; loc < trace.locations.size(); ++loc) {
    Location& l = trace.locations[loc];
    if (!held.part.held.contains(loc)) {
      l = l.definition_only();
      continue;
    }
    if (!keep_enters) std::vector<TimeNs>().swap(l.call_enter);
    std::vector<TimeNs>().swap(l.call_leave);
    std::vector<std::uint32_t>().swap(l.call_region);
  }
  trace.release_op_details();
  held.part.origin_call = {};
  held.part.origin_op = {};
  pass_freed_memory_to_next_stage();
}

// The Enters as recorded of `calls` (global ids, ascending), from their holders, in that order:
// K - 1 rounds of one partner each way. The holders then free their locations' Enters.
SliceHandover recorded_enters_in_job(HeldShare& held, const WholeTraceFacts& facts,
                                     const std::vector<std::uint32_t>& calls) {
  const int self = this_process(), processes = process_count();
  std::vector<std::vector<std::uint32_t>> asked(static_cast<std::size_t>(processes));
  for (const std::uint32_t g : calls)
    asked[holder_of(held.shares, facts.location_of(g))].push_back(g);
  const Trace& trace = held.part.trace;
  const auto answer = [&](const std::vector<std::uint32_t>& questions) {
    std::vector<TimeNs> enters;
    for (const std::uint32_t g : questions) {
      const std::uint32_t loc = facts.location_of(g);
      if (!held.part.held.contains(loc) ||
          g - facts.loc_first_call[loc] >= trace.locations[loc].call_enter.size())
        throw std::runtime_error("asked for the Enter of a call this process does not hold");
      enters.push_back(trace.locations[loc].call_enter[g - facts.loc_first_call[loc]]);
    }
    return enters;
  };
  std::vector<std::vector<TimeNs>> answers(asked.size());
  answers[static_cast<std::size_t>(self)] = answer(asked[static_cast<std::size_t>(self)]);
  for (int round = 1; round < processes; ++round) {
    const int to = (self + round) % processes, from = (self - round + processes) % processes;
    std::vector<std::uint32_t> theirs;
    In(swap_bytes(calls_bytes(asked[static_cast<std::size_t>(to)]), to, from),
       "the calls whose recorded Enters are asked for")
        .vector(theirs);
    std::vector<char> bytes;
    Out(bytes).vector(answer(theirs));
    In(swap_bytes(bytes, from, to), "the recorded Enters asked for")
        .vector(answers[static_cast<std::size_t>(to)]);
  }
  for (std::size_t loc = held.part.held.first;
       loc < std::min(held.part.held.end, held.part.trace.locations.size()); ++loc)
    std::vector<TimeNs>().swap(held.part.trace.locations[loc].call_enter);
  // Each holder's in ascending order: merged back into the order of `calls`.
  SliceHandover out;
  out.reserve(calls.size());
  std::vector<std::size_t> next(asked.size(), 0);
  for (const std::uint32_t g : calls) {
    const std::size_t p = holder_of(held.shares, facts.location_of(g));
    if (next[p] >= answers[p].size())
      throw std::runtime_error("fewer recorded Enters answered than asked for");
    out.emplace_back(g, answers[p][next[p]++]);
  }
  return out;
}

}  // namespace

std::vector<TimeNs> instants_in_job(const std::vector<TimeNs>& mine, int processes) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(processes)), offsets(counts.size(), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (std::size_t p = 1; p < counts.size(); ++p) offsets[p] = offsets[p - 1] + counts[p - 1];
  std::vector<TimeNs> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), offsets.data(),
                 MPI_INT64_T, MPI_COMM_WORLD);
  return cut_instants(std::move(all), static_cast<std::size_t>(processes));
}

JobSlice slice_in_job(const MpiJob& job, HeldShare& held, unsigned threads) {
  const std::size_t self = job.rank(), processes = job.size();
  // The rules are done: what the rows do not read goes before they are made, as for the
  // analyzer alone's root causes, so that it does not add to the rows' tables.
  release_details_for_root_causes(held.part.trace, held.matching, RootCauseStage::BeforePreparing);
  JobSlice slice;
  slice.threads = threads;
  slice.facts = facts_in_job(held);
  const WholeTraceFacts& facts = slice.facts;
  GraphRows mine =
      graph_rows(held.part.trace, held.matching, facts, held.part.held, held.part.origin_call);
  slice.types = segment_types_in_job(held, facts, mine.segment_type);
  slice.type_time = type_time_in_job(mine, slice.types.types());
  slice.pop = pop_locations_in_job(held, facts, mine);
  const LeaveOf recorded = recorded_leaves(held.part.trace, facts);
  slice.cuts = cut_held_locations(
      facts, held.part.held,
      instants_in_job(leave_samples(facts, held.part.held, recorded), static_cast<int>(processes)),
      recorded);
  allreduce(slice.cuts.first, MPI_UINT32_T, MPI_MAX);
  // The Enters stay until the calls handed over between the slices are known (below).
  release_share_for_sliced_steps(held, /*keep_enters=*/true);
  const SliceIndex index(facts, slice.cuts);
  GatedSlices gated = gated_slices(mine, index, facts.instances());
  allreduce(gated.lowest, MPI_UINT32_T, MPI_MIN);
  allreduce(gated.end, MPI_UINT32_T, MPI_MAX);
  SliceRows rows = rows_in_job(held, mine, slice.cuts, gated, index);
  // What the slices need of the rows is theirs now; the delay costs read the segments.
  mine.gate_first = {};
  mine.gates = {};
  mine.members = {};
  slice.own_rows = std::move(mine);

  // Found side by side, so that only their union travels from process to process below.
  EarlierReads reads = earlier_reads(rows, slice.cuts, self, index);
  int replayable = reads.replayable;
  MPI_Allreduce(MPI_IN_PLACE, &replayable, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  slice.refused = !replayable;
  if (slice.refused) {
    release_share_for_sliced_steps(held, false);
    return slice;
  }

  // From the last slice to the first: the calls each slice's process hands the next.
  const int rank = static_cast<int>(self);
  if (self + 1 < processes)
    slice.handed_on = read_calls(receive_bytes(rank + 1), "the calls handed on");
  slice.handed_in = handed_into(std::move(reads.entered_before), slice.handed_on, self, index);
  if (self > 0) {
    const std::vector<char> bytes = calls_bytes(slice.handed_in);
    send_bytes(bytes.data(), bytes.size(), rank - 1);
  }
  slice.recorded_handed_in = recorded_enters_in_job(held, facts, slice.handed_in);
  // From the first to the last: the compute segments of the handed calls.
  if (self > 0) In(receive_bytes(rank - 1), "the handed calls' segments").vector(rows.handed);
  if (self + 1 < processes) {
    std::vector<char> bytes;
    Out(bytes).vector(segments_to_hand(rows, slice.handed_on, index));
    send_bytes(bytes.data(), bytes.size(), rank + 1);
  }
  slice.replay->part = slice_graph_from_rows(slice.cuts, self, std::move(rows));
  pass_freed_memory_to_next_stage();  // the rows the graph was made of, before the replays' tables
  return slice;
}

namespace {

// Replays this process's slice `count` times, in passes of up to `per_pass` replays side by
// side on `threads` threads: replay(first, in, out) runs replays first, first + 1, ... from the
// Enters in[i] the slice before hands over for each and puts what each hands the next in
// out[i]. The whole lot is then handed on at once: a process that replays several goes on to
// the next while the later processes replay these. The Enters come and go in the order of the
// replays, so that neighbours replaying fewer at a time (fewer threads) read and send them
// alike.
template <typename Replay>
void handed_on(std::size_t count, std::size_t per_pass, unsigned threads, Replay&& replay) {
  const int self = this_process(), processes = process_count();
  std::vector<SliceHandover> in(count), out(count);
  if (self > 0)
    for (SliceHandover& h : in)
      h = read_call_times(receive_bytes(self - 1), "the Enters handed over");
  const std::size_t passes = (count + per_pass - 1) / per_pass;
  parallel_for(passes, threads, [&](std::size_t pass) {
    const std::size_t first = pass * per_pass, n = std::min(per_pass, count - first);
    replay(first, std::span<const SliceHandover>(in).subspan(first, n),
           std::span<SliceHandover>(out).subspan(first, n));
  });
  if (self + 1 < processes)
    for (const SliceHandover& h : out) {
      const std::vector<char> bytes = call_times_bytes(h);
      send_bytes(bytes.data(), bytes.size(), self + 1);
    }
}

// handed_on of a full replay of this process's slice into `times`.
void replay_handed_on(const JobSlice& slice, const ReplayOptions& options, ReplayTimes& times) {
  handed_on(1, 1, 1,
            [&](std::size_t, std::span<const SliceHandover> in, std::span<SliceHandover> out) {
              out[0] = replay_slice(slice.replay->part, times, options, in[0], slice.handed_on);
            });
}

// The run's end and the dependencies ignored to resolve a cycle, of every process's slice.
std::pair<TimeNs, std::uint64_t> replayed_run(const ReplayTimes& times) {
  TimeNs end = times.end;
  std::uint64_t broken = times.broken_gates;
  MPI_Allreduce(MPI_IN_PLACE, &end, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &broken, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return {end, broken};
}

}  // namespace

TimeNs replay_in_job(JobSlice& slice, const ReplayOptions& options, std::uint64_t& broken_gates) {
  replay_handed_on(slice, options, slice.replay->times);
  const auto [end, broken] = replayed_run(slice.replay->times);
  broken_gates += broken;
  return end;
}

RecordedReplay replay_recorded_in_job(JobSlice& slice) {
  const int self = this_process(), processes = process_count();
  // Every process replays its slice at once (the first from nothing to be handed): two steps
  // at 10^8 events with -np 2 where handing on the Enters took three.
  const ReplaySlice& here = *slice.replay;
  ReplaySchedule* const schedule =
      processes > 1 && self + 1 == processes ? &slice.schedule : nullptr;
  SliceHandover recorded_out = replay_slice(here.part, slice.replay->times, {},
                                            slice.recorded_handed_in, slice.handed_on, schedule);
  if (self > 0) {
    const SliceHandover handed = read_call_times(receive_bytes(self - 1), "the Enters handed over");
    if (handed != slice.recorded_handed_in)
      recorded_out =
          replay_slice(here.part, slice.replay->times, {}, handed, slice.handed_on, schedule);
  }
  if (self + 1 < processes) {
    const std::vector<char> bytes = call_times_bytes(recorded_out);
    send_bytes(bytes.data(), bytes.size(), self + 1);
  }
  RecordedReplay out;
  std::tie(out.end, out.broken_gates) = replayed_run(slice.replay->times);
  out.pop = PopTimes::of_slice(slice, slice.replay->times);
  out.pop.share();
  return out;
}

PopTimes replay_ideal_in_job(const JobSlice& slice, PendingSend& hand_on) {
  const int self = this_process(), processes = process_count();
  SliceHandover in;
  if (self > 0) in = read_call_times(receive_bytes(self - 1), "the Enters handed over");
  ReplayTimes ideal;
  const SliceHandover out =
      replay_slice(slice.replay->part, ideal, {NetworkModel::Ideal, {}}, in, slice.handed_on);
  if (self + 1 < processes) hand_on.start(call_times_bytes(out), self + 1);
  return PopTimes::of_slice(slice, ideal);
}

CriticalPathTotals walk_critical_path_in_job(
    const JobSlice& slice, const std::function<void(const CriticalPathStep&)>& visit) {
  const int self = this_process(), processes = process_count();
  const ReplaySlice& here = *slice.replay;
  const SliceCuts& cuts = slice.cuts;
  // The location whose last call leaves last (the first such location on a tie), from the
  // slices that leave the locations' last calls.
  TimeNs latest = std::numeric_limits<TimeNs>::min();
  std::uint32_t first_latest = kNone;
  for (std::uint32_t loc = 0; loc < cuts.locations; ++loc) {
    const SliceGraph& part = here.part;
    if (part.from[loc] == part.to[loc] || cuts.row(self + 1)[loc] != cuts.row(cuts.slices())[loc])
      continue;
    const TimeNs leave = here.times.leave(part.to[loc] - 1);
    if (leave > latest) latest = leave, first_latest = loc;
  }
  TimeNs job_latest = latest;
  MPI_Allreduce(MPI_IN_PLACE, &job_latest, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  std::uint32_t start_loc = latest == job_latest ? first_latest : kNone;
  MPI_Allreduce(MPI_IN_PLACE, &start_loc, 1, MPI_UINT32_T, MPI_MIN, MPI_COMM_WORLD);

  // The token: the call the path goes on from, its length and hops so far.
  std::vector<std::int64_t> token{
      start_loc == kNone ? std::int64_t{kNone} : cuts.row(cuts.slices())[start_loc] - 1, 0, 0};
  if (self + 1 < processes)
    MPI_Recv(token.data(), 3, MPI_INT64_T, self + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CriticalPathTotals totals{token[1], static_cast<std::uint32_t>(token[2])};
  auto g = static_cast<std::uint32_t>(token[0]);
  if (g != kNone) g = walk_slice_back(here, static_cast<std::size_t>(self), cuts, g, totals, visit);
  token = {g, totals.length, totals.hops};
  if (self > 0) MPI_Send(token.data(), 3, MPI_INT64_T, self - 1, 0, MPI_COMM_WORLD);
  MPI_Bcast(token.data(), 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return {token[1], static_cast<std::uint32_t>(token[2])};
}

TimeNs PopTimes::operator()(std::uint32_t call, bool leave) const {
  const auto it = std::lower_bound(ends_.begin(), ends_.end(), std::pair(call, leave));
  return it != ends_.end() && *it == std::pair(call, leave)
             ? times_[static_cast<std::size_t>(it - ends_.begin())]
             : 0;
}

PopTimes PopTimes::of_slice(const JobSlice& slice, const ReplayTimes& times) {
  PopTimes out;
  out.ends_ = replayed_ends(slice.pop);
  std::sort(out.ends_.begin(), out.ends_.end());
  out.ends_.erase(std::unique(out.ends_.begin(), out.ends_.end()), out.ends_.end());
  // Each process knows the times of the calls its slice leaves.
  const ReplaySlice& here = *slice.replay;
  out.times_.assign(out.ends_.size(), std::numeric_limits<TimeNs>::min());
  for (std::size_t e = 0; e < out.ends_.size(); ++e) {
    const auto [call, leave] = out.ends_[e];
    const std::uint32_t local = here.part.local(call);
    if (local == kNone || local >= here.part.graph.loc_first_call.back()) continue;
    const std::uint32_t loc = here.part.graph.call_loc[local];
    if (local < here.part.from[loc] || local >= here.part.to[loc]) continue;
    out.times_[e] = leave ? times.leave(local) : times.enter[local];
  }
  return out;
}

void PopTimes::share() {
  allreduce(times_, MPI_INT64_T, MPI_MAX);
}

std::optional<CriticalPathSummary> critical_path_in_job(const JobSlice& slice, const Trace& trace,
                                                        std::size_t top) {
  const SliceGraph& part = slice.replay->part;
  CriticalPathTally tally(trace, slice.types);
  const CriticalPathTotals totals =
      walk_critical_path_in_job(slice, [&](const CriticalPathStep& step) {
        tally.add(step, part.segment_type[part.local(step.call)], slice.types);
      });
  const auto fields = [](auto& io, auto& t) {
    io.vector(t.on_path);
    io.vector(t.site_time);
    io.vector(t.site_region);
    io.value(t.compute);
    io.value(t.mpi);
  };
  const std::vector<std::vector<char>> parts = gather_bytes(to_bytes(tally, fields));
  if (this_process() != 0) return std::nullopt;
  // The later processes' steps were visited first.
  CriticalPathTally sum(trace, slice.types);
  for (const std::vector<char>& bytes : parts)
    sum.merge_earlier_visited(
        from_bytes<CriticalPathTally>(bytes, "the critical path's sums", fields));
  return sum.summary(trace, slice.types, slice.type_time, totals, top);
}

namespace {

// Of each question, the changed segments the slice enters, from every process's of its own
// locations: K - 1 rounds of one partner each way.
std::vector<std::vector<ScaledSegment>> changes_in_job(
    const JobSlice& slice, const std::vector<std::vector<ScaledSegment>>& own) {
  const int self = this_process(), processes = process_count();
  const SliceIndex index(slice.facts, slice.cuts);
  // A segment is entered where the call before it is left.
  const auto for_slice = [&](int s) {
    std::vector<std::vector<ScaledSegment>> out(own.size());
    for (std::size_t q = 0; q < own.size(); ++q)
      for (const ScaledSegment& c : own[q])
        if (index.entered_in(c.call) == static_cast<std::uint32_t>(s)) out[q].push_back(c);
    return out;
  };
  const auto fields = [](auto& io, auto& lists) {
    io.count(lists);
    for (auto& list : lists) io.vector(list);
  };
  std::vector<std::vector<ScaledSegment>> here = for_slice(self);
  for (int round = 1; round < processes; ++round) {
    const int to = (self + round) % processes, from = (self - round + processes) % processes;
    const std::vector<char> bytes = swap_bytes(to_bytes(for_slice(to), fields), to, from);
    const auto theirs =
        from_bytes<std::vector<std::vector<ScaledSegment>>>(bytes, "the changed segments", fields);
    for (std::size_t q = 0; q < here.size() && q < theirs.size(); ++q)
      here[q].insert(here[q].end(), theirs[q].begin(), theirs[q].end());
  }
  for (std::vector<ScaledSegment>& list : here)
    std::sort(list.begin(), list.end(),
              [](const ScaledSegment& a, const ScaledSegment& b) { return a.call < b.call; });
  return here;
}

// The ends of the last slice's replays of `here`, found backwards while the processes before
// replay their slices (slice_end_function.h), kReplayLanes questions to a pass, as many passes
// side by side as the process has threads; then taken from the Enters they hand in, in the
// order handed_on sends them.
std::vector<TimeNs> ends_found_backwards(const JobSlice& slice,
                                         const std::vector<std::vector<ScaledSegment>>& here) {
  std::vector<SliceEndFunction> end_of(here.size());
  const std::size_t passes = (here.size() + kReplayLanes - 1) / kReplayLanes;
  parallel_for(passes, slice.threads, [&](std::size_t pass) {
    const std::size_t first = pass * kReplayLanes;
    const std::size_t n = std::min(kReplayLanes, here.size() - first);
    std::array<std::span<const ScaledSegment>, kReplayLanes> scaled;
    std::copy_n(here.begin() + static_cast<std::ptrdiff_t>(first), n, scaled.begin());
    std::vector<SliceEndFunction> found = slice_end_functions(
        slice.replay->part, slice.schedule, std::span(scaled.data(), n), slice.handed_in);
    std::move(found.begin(), found.end(), end_of.begin() + static_cast<std::ptrdiff_t>(first));
  });
  std::vector<TimeNs> ends(here.size());
  for (std::size_t q = 0; q < here.size(); ++q)
    ends[q] =
        end_of[q](read_call_times(receive_bytes(this_process() - 1), "the Enters handed over"));
  return ends;
}

// The ends of this slice's replays of `here`, replayed forwards as the Enters come: passes of
// kReplayLanes questions, which share the work of finding the next call, as many side by side
// as the process has threads; each lane with its table of Enters.
std::vector<TimeNs> ends_replayed(const JobSlice& slice,
                                  const std::vector<std::vector<ScaledSegment>>& here) {
  std::vector<TimeNs> ends(here.size(), 0);
  const std::size_t passes = (here.size() + kReplayLanes - 1) / kReplayLanes;
  const std::size_t together = worker_count(slice.threads, passes);
  std::vector<std::vector<TimeNs>> enter(together * kReplayLanes);
  for (std::size_t first = 0; first < here.size(); first += together * kReplayLanes) {
    const std::size_t count = std::min(together * kReplayLanes, here.size() - first);
    handed_on(count, kReplayLanes, slice.threads,
              [&](std::size_t i, std::span<const SliceHandover> in, std::span<SliceHandover> out) {
                const std::span<const std::vector<ScaledSegment>> asked(here.data() + first + i,
                                                                        in.size());
                std::array<std::span<const ScaledSegment>, kReplayLanes> scaled;
                std::copy(asked.begin(), asked.end(), scaled.begin());
                const std::vector<SliceHandover> handed = replay_slice_ends(
                    slice.replay->part, std::span(scaled.data(), in.size()), in, slice.handed_on,
                    std::span(ends).subspan(first + i, in.size()),
                    std::span(enter).subspan(i, in.size()));
                std::copy(handed.begin(), handed.end(), out.begin());
              });
  }
  return ends;
}

}  // namespace

std::vector<TimeNs> replay_questions_in_job(
    const JobSlice& slice, const std::vector<std::vector<ScaledSegment>>& changes) {
  const std::vector<std::vector<ScaledSegment>> here = changes_in_job(slice, changes);
  // The last slice needs no Enters to begin with (it hands none on): it waits for none.
  std::vector<TimeNs> ends = process_count() > 1 && this_process() + 1 == process_count()
                                 ? ends_found_backwards(slice, here)
                                 : ends_replayed(slice, here);
  allreduce(ends, MPI_INT64_T, MPI_MAX);
  return ends;
}

}  // namespace collwrap
