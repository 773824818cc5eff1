#include "sliced_delay.h"

#include <algorithm>
#include <stdexcept>

namespace collwrap {
namespace {

// The process whose share holds location `loc`.
std::size_t holder_of(const std::vector<LocationRange>& shares, std::uint32_t loc) {
  for (std::size_t p = 0; p < shares.size(); ++p)
    if (shares[p].contains(loc)) return p;
  throw std::invalid_argument("a location no process holds");
}

std::uint32_t location_of(const WholeTraceFacts& facts, std::uint32_t g) {
  const auto& first = facts.loc_first_call;
  return static_cast<std::uint32_t>(std::upper_bound(first.begin(), first.end(), g) -
                                    first.begin() - 1);
}

// The held locations that exist, [first, end).
std::size_t held_end(const LocationRange& held, const WholeTraceFacts& facts) {
  return std::min(held.end, facts.loc_first_call.size() - 1);
}

}  // namespace

ReplayedPart replayed_for_holder(const ReplaySlice& here, const LocationRange& held) {
  ReplayedPart part;
  const SliceGraph& graph = here.part;
  for (std::size_t loc = held.first; loc < std::min(held.end, graph.from.size()); ++loc)
    for (std::uint32_t c = graph.from[loc]; c < graph.to[loc]; ++c) {
      part.leave.push_back(here.times.leave(c));
      if (const std::uint32_t w = here.times.waited_for[c]; w != kNone)
        part.waits.push_back({graph.global[c], graph.global[w], here.times.wait(c)});
    }
  return part;
}

HeldReplay::HeldReplay(const WholeTraceFacts& facts, const LocationRange& held)
    : facts_(facts), held_(held) {
  const std::size_t end = held_end(held, facts);
  if (held.first < end) {
    first_call_ = facts.loc_first_call[held.first];
    leave_.resize(facts.loc_first_call[end] - first_call_);
  }
}

void HeldReplay::add(const ReplayedPart& part, const SliceCuts& cuts, std::size_t s) {
  std::size_t next = 0;
  for (std::size_t loc = held_.first; loc < held_end(held_, facts_); ++loc) {
    const std::uint32_t first = cuts.row(s)[loc], end = cuts.row(s + 1)[loc];
    if (next + (end - first) > part.leave.size())
      throw std::runtime_error("a replay slice's Leaves are fewer than its calls");
    std::copy_n(part.leave.begin() + static_cast<std::ptrdiff_t>(next), end - first,
                leave_.begin() + (first - first_call_));
    next += end - first;
  }
  if (next != part.leave.size())
    throw std::runtime_error("a replay slice's Leaves are more than its calls");
  for (const ReplayedWait& w : part.waits)
    waits_.push_back({.call = w.call, .waited_for = w.waited_for, .wait = w.wait});
}

void HeldReplay::finish() {
  std::sort(waits_.begin(), waits_.end(),
            [](const DelayWait& a, const DelayWait& b) { return a.call < b.call; });
}

void waiter_intervals(HeldReplay& replay, const Trace& trace, const WholeTraceFacts& facts,
                      const DelayOptions& options) {
  for (DelayWait& w : replay.waits()) {
    const std::uint32_t loc = location_of(facts, w.call);
    const std::int32_t rank = trace.locations[location_of(facts, w.waited_for)].rank;
    const std::uint32_t first = facts.loc_first_call[loc];
    w.waiter_begin = first + interval_begin(trace.locations[loc], w.call - first, rank, options);
  }
}

std::vector<std::vector<DelayerQuestion>> delayer_questions(
    const HeldReplay& replay, const Trace& trace, const WholeTraceFacts& facts,
    const std::vector<LocationRange>& shares) {
  std::vector<std::vector<DelayerQuestion>> asked(shares.size());
  for (const DelayWait& w : replay.waits()) {
    const std::int32_t rank = trace.locations[location_of(facts, w.call)].rank;
    asked[holder_of(shares, location_of(facts, w.waited_for))].push_back({w.waited_for, rank});
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
    const std::uint32_t loc = location_of(facts, q.call), first = facts.loc_first_call[loc];
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
    const std::size_t p = holder_of(shares, location_of(facts, w.waited_for));
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

DelayWindow empty_delay_window(const DelayWindowRuns& runs, std::size_t s) {
  DelayWindow window;
  std::size_t rows = 0;
  for (std::size_t loc = 0; loc < runs.locations; ++loc) {
    window.first.push_back(runs.first[s * runs.locations + loc]);
    window.end.push_back(runs.end[s * runs.locations + loc]);
    rows += window.end.back() - window.first.back();
  }
  window.segment.resize(rows);
  window.type.resize(rows);
  return window;
}

DelayWindowPart delay_rows_for_slice(const HeldReplay& replay, const GraphRows& rows,
                                     const Trace& trace, const WholeTraceFacts& facts,
                                     const DelayWindowRuns& runs, std::size_t s) {
  DelayWindowPart out;
  const std::vector<DelayWait>& waits = replay.waits();
  for (std::size_t loc = replay.held().first; loc < held_end(replay.held(), facts); ++loc) {
    const std::uint32_t first = runs.first[s * runs.locations + loc],
                        end = runs.end[s * runs.locations + loc];
    for (std::uint32_t g = first; g < end; ++g) {
      out.segment.push_back(rows.segment(g));
      out.type.push_back(rows.segment_type[g - rows.first_call]);
    }
    const auto in_run = [&](const DelayWait& w, std::uint32_t g) { return w.call < g; };
    for (auto w = std::lower_bound(waits.begin(), waits.end(), first, in_run);
         w != waits.end() && w->call < end; ++w) {
      DelayWait& wait = out.waits.emplace_back(*w);
      wait.site = trace.locations[loc].call_callsite[w->call - facts.loc_first_call[loc]];
      wait.leave = replay.leave(w->call);
    }
  }
  return out;
}

HeldRows held_rows(DelayWindow& window, const LocationRange& held) {
  const std::size_t locations = window.first.size();
  std::size_t at = 0, count = 0;
  for (std::size_t loc = 0; loc < std::min(held.end, locations); ++loc)
    (loc < held.first ? at : count) += window.end[loc] - window.first[loc];
  return {std::span(window.segment).subspan(at, count), std::span(window.type).subspan(at, count)};
}

void merge_delay_waits(DelayWindow& into, std::vector<DelayWait> waits) {
  if (waits.empty()) return;
  const auto at = std::lower_bound(into.waits.begin(), into.waits.end(), waits.front().call,
                                   [](const DelayWait& w, std::uint32_t g) { return w.call < g; });
  into.waits.insert(at, waits.begin(), waits.end());
}

void merge_delay_rows(DelayWindow& into, DelayWindowPart part, const LocationRange& held) {
  const HeldRows place = held_rows(into, held);
  if (part.segment.size() != place.segment.size() || part.type.size() != place.type.size())
    throw std::runtime_error("a holder sent a delay slice more or fewer rows than its window has");
  std::copy(part.segment.begin(), part.segment.end(), place.segment.begin());
  std::copy(part.type.begin(), part.type.end(), place.type.begin());
  merge_delay_waits(into, std::move(part.waits));
}

}  // namespace collwrap
