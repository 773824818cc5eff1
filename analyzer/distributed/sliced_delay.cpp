#include "sliced_delay.h"

#include <algorithm>
#include <ranges>
#include <stdexcept>

namespace collwrap {
namespace {

// The held locations that exist, [first, end).
std::size_t held_end(const LocationRange& held, const WholeTraceFacts& facts) {
  return std::min(held.end, facts.loc_first_call.size() - 1);
}

// visit(call) for each call of the holder's locations that waited in the replay slice, in call
// order (calls of the slice graph).
template <typename Visit>
void for_replayed_waits(const ReplaySlice& here, const LocationRange& held, Visit&& visit) {
  const SliceGraph& graph = here.part;
  for (std::size_t loc = held.first; loc < std::min(held.end, graph.from.size()); ++loc)
    for (std::uint32_t c = graph.from[loc]; c < graph.to[loc]; ++c)
      if (here.times.waited_for[c] != kNone) visit(c);
}

}  // namespace

std::vector<ReplayedWait> replayed_waits_for_holder(const ReplaySlice& here,
                                                    const LocationRange& held) {
  std::vector<ReplayedWait> waits;
  waits.reserve(replayed_wait_count_for_holder(here, held));
  const SliceGraph& graph = here.part;
  for_replayed_waits(here, held, [&](std::uint32_t c) {
    waits.push_back({graph.global[c], graph.global[here.times.waited_for[c]], here.times.wait(c),
                     here.times.leave(c)});
  });
  return waits;
}

std::size_t replayed_wait_count_for_holder(const ReplaySlice& here, const LocationRange& held) {
  std::size_t count = 0;
  for_replayed_waits(here, held, [&](std::uint32_t) { ++count; });
  return count;
}

void HeldReplay::add(std::span<const ReplayedWait> waits) {
  run_starts_.push_back(waits_.size());
  for (const ReplayedWait& w : waits)
    waits_.push_back(
        {.call = w.call, .waited_for = w.waited_for, .wait = w.wait, .leave = w.leave});
}

void HeldReplay::finish() {
  // Each slice's waits come in call order (replayed_waits_for_holder): merging them, two runs
  // at a time, is linear in each round, where sorting them all took 0.2 s of a process's 10 at
  // 10^8 events with two processes.
  const auto by_call = [](const DelayWait& a, const DelayWait& b) { return a.call < b.call; };
  std::vector<std::size_t> bounds = std::move(run_starts_);
  bounds.push_back(waits_.size());
  for (std::size_t r = 0; r + 1 < bounds.size(); ++r)
    if (!std::is_sorted(waits_.begin() + bounds[r], waits_.begin() + bounds[r + 1], by_call))
      std::sort(waits_.begin() + bounds[r], waits_.begin() + bounds[r + 1], by_call);
  while (bounds.size() > 2) {
    std::vector<std::size_t> merged{0};
    for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
      if (r + 2 < bounds.size())
        std::inplace_merge(waits_.begin() + bounds[r], waits_.begin() + bounds[r + 1],
                           waits_.begin() + bounds[r + 2], by_call);
      merged.push_back(bounds[std::min(r + 2, bounds.size() - 1)]);
    }
    bounds = std::move(merged);
  }
  run_starts_ = {};
}

std::vector<TimeNs> replayed_leave_samples(const ReplaySlice& here, std::size_t most) {
  const SliceGraph& graph = here.part;
  std::size_t calls = 0;
  for (std::size_t loc = 0; loc < graph.from.size(); ++loc)
    calls += graph.to[loc] - graph.from[loc];
  const std::size_t step = sample_step(calls, most);
  std::vector<TimeNs> samples;
  std::size_t n = 0;
  for (std::size_t loc = 0; loc < graph.from.size(); ++loc)
    for (std::uint32_t c = graph.from[loc]; c < graph.to[loc]; ++c)
      if (n++ % step == 0) samples.push_back(here.times.leave(c));
  return samples;
}

SliceCuts cut_replayed_slice(const ReplaySlice& here, const WholeTraceFacts& facts,
                             const std::vector<TimeNs>& instants) {
  const SliceGraph& graph = here.part;
  SliceCuts cuts;
  cuts.locations = facts.loc_first_call.size() - 1;
  const std::size_t slices = instants.size() + 1;
  cuts.first.resize((slices + 1) * cuts.locations);
  for (std::size_t loc = 0; loc < cuts.locations; ++loc) {
    const std::uint32_t end = facts.loc_first_call[loc + 1];
    cuts.first[loc] = facts.loc_first_call[loc];
    for (std::size_t s = 1; s <= slices; ++s) cuts.first[s * cuts.locations + loc] = end;
    if (loc >= graph.from.size() || graph.from[loc] == graph.to[loc]) continue;
    const std::uint32_t from = graph.from[loc], to = graph.to[loc];
    for (std::size_t s = 1; s < slices; ++s) {
      const std::uint32_t c = *std::ranges::partition_point(
          std::views::iota(from, to),
          [&](std::uint32_t c) { return here.times.leave(c) < instants[s - 1]; });
      if (c < to) cuts.first[s * cuts.locations + loc] = graph.global[c];
    }
  }
  return cuts;
}

void merge_least_cuts(SliceCuts& into, const SliceCuts& part) {
  if (into.first.empty()) {
    into = part;
    return;
  }
  for (std::size_t k = 0; k < into.first.size(); ++k)
    into.first[k] = std::min(into.first[k], part.first[k]);
}

void waiter_intervals(HeldReplay& replay, const Trace& trace, const WholeTraceFacts& facts,
                      const DelayOptions& options) {
  for (DelayWait& w : replay.waits()) {
    const std::uint32_t loc = facts.location_of(w.call);
    const std::int32_t rank = trace.locations[facts.location_of(w.waited_for)].rank;
    const std::uint32_t first = facts.loc_first_call[loc];
    w.waiter_begin = first + interval_begin(trace.locations[loc], w.call - first, rank, options);
  }
}

std::vector<std::vector<DelayerQuestion>> delayer_questions(
    const HeldReplay& replay, const Trace& trace, const WholeTraceFacts& facts,
    const std::vector<LocationRange>& shares) {
  std::vector<std::vector<DelayerQuestion>> asked(shares.size());
  for (const DelayWait& w : replay.waits()) {
    const std::int32_t rank = trace.locations[facts.location_of(w.call)].rank;
    asked[holder_of(shares, facts.location_of(w.waited_for))].push_back({w.waited_for, rank});
  }
  return asked;
}

std::vector<std::uint32_t> answer_delayer_questions(const std::vector<DelayerQuestion>& questions,
                                                    const Trace& trace,
                                                    const WholeTraceFacts& facts,
                                                    const DelayOptions& options) {
  std::vector<std::uint32_t> answers;
  answers.reserve(questions.size());
  for (const DelayerQuestion& q : questions) {
    const std::uint32_t loc = facts.location_of(q.call), first = facts.loc_first_call[loc];
    answers.push_back(first +
                      interval_begin(trace.locations[loc], q.call - first, q.rank, options));
  }
  return answers;
}

void take_delayer_answers(HeldReplay& replay, const WholeTraceFacts& facts,
                          const std::vector<LocationRange>& shares,
                          const std::vector<std::vector<std::uint32_t>>& answers) {
  std::vector<std::size_t> next(shares.size(), 0);
  for (DelayWait& w : replay.waits()) {
    const std::size_t p = holder_of(shares, facts.location_of(w.waited_for));
    if (p >= answers.size() || next[p] >= answers[p].size())
      throw std::runtime_error("fewer synchronization intervals came back than were asked for");
    w.delayer_begin = answers[p][next[p]++];
  }
}

void need_calls(DelayWindowRuns& runs, const HeldReplay& replay, const SliceIndex& index) {
  for (const DelayWait& w : replay.waits())
    runs.need(index.slice_of(w.call), index.location_of(w.call), w,
              index.location_of(w.waited_for));
}

DelayWindow empty_delay_window(const DelayWindowRuns& runs, std::size_t s, std::size_t waits) {
  DelayWindow window;
  std::size_t rows = 0;
  for (std::size_t loc = 0; loc < runs.locations; ++loc) {
    window.first.push_back(runs.first[s * runs.locations + loc]);
    window.end.push_back(runs.end[s * runs.locations + loc]);
    rows += window.end.back() - window.first.back();
  }
  window.segment.resize(rows);
  window.type.resize(rows);
  window.waits.resize(waits);
  return window;
}

namespace {

// visit(location, first call, end call, first wait, end wait): of each of the holder's
// locations, the run of calls slice s's window reads and the holder's waits among them.
template <typename Visit>
void for_window_runs(const HeldReplay& replay, const WholeTraceFacts& facts,
                     const DelayWindowRuns& runs, std::size_t s, Visit&& visit) {
  const std::vector<DelayWait>& waits = replay.waits();
  const auto by_call = [](const DelayWait& w, std::uint32_t g) { return w.call < g; };
  for (std::size_t loc = replay.held().first; loc < held_end(replay.held(), facts); ++loc) {
    const std::uint32_t first = runs.first[s * runs.locations + loc];
    const std::uint32_t end = runs.end[s * runs.locations + loc];
    visit(loc, first, end, std::lower_bound(waits.begin(), waits.end(), first, by_call),
          std::lower_bound(waits.begin(), waits.end(), end, by_call));
  }
}

}  // namespace

std::size_t delay_wait_count_for_slice(const HeldReplay& replay, const WholeTraceFacts& facts,
                                       const DelayWindowRuns& runs, std::size_t s) {
  std::size_t waited = 0;
  for_window_runs(replay, facts, runs, s, [&](std::size_t, auto, auto, auto from, auto to) {
    waited += static_cast<std::size_t>(to - from);
  });
  return waited;
}

DelayWindowPart delay_rows_for_slice(const HeldReplay& replay, const GraphRows& rows,
                                     const Trace& trace, const WholeTraceFacts& facts,
                                     const DelayWindowRuns& runs, std::size_t s) {
  DelayWindowPart out;
  // Sized first: grown by doubling, the part would hold up to twice its rows, and the copies
  // left behind at each growth would add to the peak.
  std::size_t row_count = 0;
  for_window_runs(replay, facts, runs, s,
                  [&](std::size_t, std::uint32_t first, std::uint32_t end, auto, auto) {
                    row_count += end - first;
                  });
  out.segment.reserve(row_count);
  out.type.reserve(row_count);
  out.waits.reserve(delay_wait_count_for_slice(replay, facts, runs, s));
  for_window_runs(replay, facts, runs, s,
                  [&](std::size_t loc, std::uint32_t first, std::uint32_t end, auto from, auto to) {
                    for (std::uint32_t g = first; g < end; ++g) {
                      out.segment.push_back(rows.segment(g));
                      out.type.push_back(rows.segment_type[g - rows.first_call]);
                    }
                    for (auto w = from; w != to; ++w) {
                      DelayWait& wait = out.waits.emplace_back(*w);
                      wait.site =
                          trace.locations[loc].call_callsite[w->call - facts.loc_first_call[loc]];
                    }
                  });
  return out;
}

HeldRows held_rows(DelayWindow& window, const LocationRange& held, std::size_t first_wait,
                   std::size_t waits) {
  const std::size_t locations = window.first.size();
  std::size_t at = 0, count = 0;
  for (std::size_t loc = 0; loc < std::min(held.end, locations); ++loc)
    (loc < held.first ? at : count) += window.end[loc] - window.first[loc];
  if (first_wait + waits > window.waits.size())
    throw std::runtime_error(
        "a delay slice's window has less room for waits than its holders send");
  return {std::span(window.segment).subspan(at, count), std::span(window.type).subspan(at, count),
          std::span(window.waits).subspan(first_wait, waits)};
}

void place_delay_rows(const HeldRows& place, const DelayWindowPart& part) {
  if (part.segment.size() != place.segment.size() || part.type.size() != place.type.size() ||
      part.waits.size() != place.waits.size())
    throw std::runtime_error("a holder sent a delay slice more or fewer rows than its window has");
  std::copy(part.segment.begin(), part.segment.end(), place.segment.begin());
  std::copy(part.type.begin(), part.type.end(), place.type.begin());
  std::copy(part.waits.begin(), part.waits.end(), place.waits.begin());
}

}  // namespace collwrap
