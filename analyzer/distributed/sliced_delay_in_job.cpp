#include "sliced_delay_in_job.h"

#include <mpi.h>

#include "byte_exchange.h"
#include "byte_fields.h"
#include "memory_reuse.h"
#include "sliced_delay.h"

namespace collwrap {
namespace {

// By process, how many of something each sends this one, from how many this one sends each
// (count(to)).
template <typename Count>
std::vector<std::uint64_t> received_from_each(Count&& count) {
  const int processes = process_count();
  std::vector<std::uint64_t> to_each(static_cast<std::size_t>(processes));
  std::vector<std::uint64_t> from_each(to_each.size());
  for (int to = 0; to < processes; ++to) to_each[static_cast<std::size_t>(to)] = count(to);
  MPI_Alltoall(to_each.data(), 1, MPI_UINT64_T, from_each.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  return from_each;
}
template <typename Count>
std::size_t received_in_all(Count&& count) {
  std::size_t sum = 0;
  for (const std::uint64_t n : received_from_each(count)) sum += n;
  return sum;
}

// 1. The waits of this process's locations' calls, from every slice's process: K - 1 rounds
// of one partner each way.
HeldReplay replay_to_holders(const JobSlice& slice, const HeldShare& held) {
  const int self = this_process(), processes = process_count();
  HeldReplay mine(held.part.held);
  const auto holder = [&](int p) { return held.shares.at(static_cast<std::size_t>(p)); };
  mine.reserve(received_in_all(
      [&](int to) { return replayed_wait_count_for_holder(*slice.replay, holder(to)); }));
  const auto waits_for = [&](int to) {
    return replayed_waits_for_holder(*slice.replay, holder(to));
  };
  mine.add(waits_for(self));
  for (int round = 1; round < processes; ++round) {
    const int to = (self + round) % processes, from = (self - round + processes) % processes;
    std::vector<char> bytes;
    Out(bytes).vector(waits_for(to));
    std::vector<ReplayedWait> theirs;
    In(swap_bytes(bytes, to, from), "the waits of a replay slice's calls").vector(theirs);
    mine.add(theirs);
  }
  mine.finish();
  return mine;
}

// 2. The delay analysis's slices, at the replayed Leaves: each process cuts the calls its
// replay slice left.
SliceCuts cut_at_replayed_leaves_in_job(const JobSlice& slice) {
  const std::vector<TimeNs> instants =
      instants_in_job(replayed_leave_samples(*slice.replay), process_count());
  SliceCuts cuts = cut_replayed_slice(*slice.replay, slice.facts, instants);
  allreduce(cuts.first, MPI_UINT32_T, MPI_MIN);
  return cuts;
}

// 3. The waits' synchronization intervals: the delayers' from their holders.
void intervals_in_job(const JobSlice& slice, const HeldShare& held, HeldReplay& replay,
                      const DelayOptions& options) {
  const Trace& trace = held.part.trace;
  waiter_intervals(replay, trace, slice.facts, options);
  const std::vector<std::vector<DelayerQuestion>> asked =
      delayer_questions(replay, trace, slice.facts, held.shares);
  const int self = this_process(), processes = process_count();
  std::vector<std::vector<std::uint32_t>> answers(static_cast<std::size_t>(processes));
  const auto answer = [&](const std::vector<DelayerQuestion>& questions) {
    return answer_delayer_questions(questions, trace, slice.facts, options);
  };
  answers[static_cast<std::size_t>(self)] = answer(asked[static_cast<std::size_t>(self)]);
  for (int round = 1; round < processes; ++round) {
    const int to = (self + round) % processes, from = (self - round + processes) % processes;
    std::vector<char> bytes;
    Out(bytes).vector(asked[static_cast<std::size_t>(to)]);
    std::vector<DelayerQuestion> theirs;
    In(swap_bytes(bytes, to, from), "the synchronization intervals asked for").vector(theirs);
    bytes.clear();
    Out(bytes).vector(answer(theirs));
    In(swap_bytes(bytes, from, to), "the synchronization intervals answered")
        .vector(answers[static_cast<std::size_t>(to)]);
  }
  take_delayer_answers(replay, slice.facts, held.shares, answers);
}

// Of the share, once the synchronization intervals are found (they read its ops), only each
// call's call site is read: the window's waits and the what-if questions name them.
void keep_only_call_sites(Trace& trace) {
  for (Location& l : trace.locations) {
    std::vector<std::uint32_t> sites = std::move(l.call_callsite);
    l = l.definition_only();
    l.call_callsite = std::move(sites);
  }
}

// 4. This process's slice's window, its rows from every holder.
DelayWindow window_in_job(const JobSlice& slice, const HeldShare& held, const HeldReplay& replay,
                          const SliceCuts& cuts) {
  const int self = this_process(), processes = process_count();
  DelayWindowRuns runs(cuts);
  need_calls(runs, replay, SliceIndex(slice.facts, cuts));
  allreduce(runs.first, MPI_UINT32_T, MPI_MIN);
  allreduce(runs.end, MPI_UINT32_T, MPI_MAX);
  const auto rows_for = [&](int s) {
    return delay_rows_for_slice(replay, slice.own_rows, held.part.trace, slice.facts, runs,
                                static_cast<std::size_t>(s));
  };
  // Every process knows how many rows each sends each, and is told how many waits: each
  // holder's are received in their place (in call order, after the holders' before).
  const std::vector<std::uint64_t> waits = received_from_each([&](int s) {
    return delay_wait_count_for_slice(replay, slice.facts, runs, static_cast<std::size_t>(s));
  });
  std::vector<std::size_t> first_wait(waits.size() + 1, 0);
  for (std::size_t p = 0; p < waits.size(); ++p) first_wait[p + 1] = first_wait[p] + waits[p];
  DelayWindow window = empty_delay_window(runs, static_cast<std::size_t>(self), first_wait.back());
  const auto place_of = [&](int p) {
    const auto q = static_cast<std::size_t>(p);
    return held_rows(window, held.shares.at(q), first_wait[q], waits[q]);
  };
  place_delay_rows(place_of(self), rows_for(self));
  for (int round = 1; round < processes; ++round) {
    const int to = (self + round) % processes, from = (self - round + processes) % processes;
    const DelayWindowPart part = rows_for(to);
    const HeldRows place = place_of(from);
    ExchangeRound exchange;
    exchange.receive(place.segment, from);
    exchange.receive(place.type, from);
    exchange.receive(place.waits, from);
    exchange.send(part.segment, to);
    exchange.send(part.type, to);
    exchange.send(part.waits, to);
    exchange.wait();
  }
  return window;
}

const auto handover_fields = [](auto& io, auto& h) {
  io.vector(h.segments);
  io.vector(h.waits);
  io.vector(h.charges);
  io.value(h.total_wait);
  io.value(h.residual);
};

}  // namespace

JobDelayCosts delay_costs_in_job(JobSlice& slice, HeldShare& held, const DelayOptions& options,
                                 const std::function<void()>& beside_the_chain) {
  const int self = this_process(), processes = process_count();
  JobDelayCosts out;
  // Each table below is made after the one before it is freed; at each step the heap's freed
  // pieces go back to the system and the large blocks' pages are passed to the next step's
  // tables (page_recycler.h), so that those do not add to them: the peak of a process is the
  // largest step's, not the sum of the steps' tables (see README.md, "What it costs and
  // saves").
  DelayWindow window;
  {
    out.cuts = cut_at_replayed_leaves_in_job(slice);
    pass_freed_memory_to_next_stage();  // the critical path's and the ideal replay's
    HeldReplay replay = replay_to_holders(slice, held);
    slice.replay->times = {};
    intervals_in_job(slice, held, replay, options);
    keep_only_call_sites(held.part.trace);
    // The replay's times, the intervals' working tables, the ops.
    pass_freed_memory_to_next_stage();
    window = window_in_job(slice, held, replay, out.cuts);
  }
  pass_freed_memory_to_next_stage();  // the replayed times of the holders' calls
  const bool last = self + 1 == processes;
  if (beside_the_chain && !last) {
    beside_the_chain();
    pass_freed_memory_to_next_stage();
  }
  out.slice = std::make_unique<DelaySlice>(std::move(window), slice.types.types(), slice.threads);
  // 5. From the last slice to the first.
  const SliceIndex index(slice.facts, out.cuts);
  const auto here = static_cast<std::uint32_t>(self);
  const auto own = [&](std::uint32_t g) { return index.slice_of(g) == here; };
  if (self + 1 < processes) {
    // Until the processes after this one hand back, this one reads its first waits'
    // intervals, which do not depend on what they hand back. At 10^8 events with two
    // processes, process 0 planned 0.6-1.3 million of its 3.5 million waits in the time it
    // waited, and the two attributions took 2.05-2.62 s where they had taken 2.63-2.81 (five
    // runs each). The plans, of 4 + 40 bytes a wait and 24 a segment type shared, may take up
    // to 6 bytes a row of the window, whose tables are the peak: there, 95 MB of plans at
    // most, and process 0's peak went from 1,439 to 1,472-1,503 MiB (0.52-0.53 of the
    // analyzer alone's).
    constexpr std::size_t kPlanBytesPerRow = 6;
    out.slice->plan_ahead(own, out.slice->window().rows() * kPlanBytesPerRow,
                          [&] { return bytes_waiting(self + 1); });
    out.slice->take_over(from_bytes<DelayHandover>(receive_bytes(self + 1),
                                                   "the delay costs handed back", handover_fields));
  }
  out.slice->attribute(own);
  if (self > 0) {
    const std::vector<char> bytes =
        to_bytes(out.slice->hand_back([&](std::uint32_t g) { return index.entered_in(g) < here; }),
                 handover_fields);
    send_bytes(bytes.data(), bytes.size(), self - 1);
  }
  if (beside_the_chain && last) {
    out.slice->release_waits();
    pass_freed_memory_to_next_stage();
    beside_the_chain();
  }
  const DelayCosts& costs = out.slice->costs();
  out.totals.waits = costs.waits;
  MPI_Allreduce(MPI_IN_PLACE, &out.totals.waits, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  std::vector<double> sums{costs.total_wait, costs.residual};
  MPI_Bcast(sums.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  out.totals.total_wait = sums[0];
  out.totals.residual = sums[1];
  if (self == 0) out.totals.charges = costs.charges;
  return out;
}

}  // namespace collwrap
