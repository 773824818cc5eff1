#include "run_overview.h"

#include <algorithm>
#include <limits>

#include "analyze.h"
#include "result_units.h"
#include "time_sum.h"

namespace collwrap {
namespace {

TimeNs location_time(const LocationTimes& t) {
  return t.has_calls ? t.last_leave - t.first_enter : 0;
}

// One line per kind of damage, saying what it means for the numbers.
std::vector<std::string> warnings_of(const Trace& trace, const MatchCounts& counts) {
  std::vector<std::string> w = trace.warnings.messages;
  const auto add = [&w](std::uint64_t n, const std::string& what) {
    if (n > 0) w.push_back(std::to_string(n) + " " + what);
  };
  add(trace.warnings.missing_locations,
      "location(s) defined in the archive have no events (a rank's files missing?); their "
      "partners' waits are not reported");
  add(trace.warnings.unclosed_calls, "MPI call(s) never returned (truncated trace?)");
  add(trace.warnings.orphan_ops, "MPI record(s) outside any MPI call were ignored");
  add(counts.unmatched_sends, "send(s) without a matching receive were not analyzed");
  add(counts.unmatched_receives, "receive(s) without a matching send were not analyzed");
  add(counts.unmatched_requests, "request(s) without their start or completion were not analyzed");
  add(counts.incomplete_collectives, "collective operation(s) missing members were not analyzed");
  add(counts.mismatched_collectives,
      "collective operation(s) whose members disagree on the operation or root were not "
      "analyzed");
  add(counts.invalid_ops, "MPI record(s) with an unknown peer or communicator were ignored");
  add(counts.clock_violations,
      "clock-condition violation(s): a receive ended before its send began; idle times near "
      "them may be off by the clock error");
  return w;
}

}  // namespace

std::vector<LocationTimes> location_times(const Trace& trace, const LocationRange& at) {
  std::vector<LocationTimes> times;
  for (std::size_t li = 0; li < trace.locations.size(); ++li) {
    if (!at.contains(li)) continue;
    const Location& l = trace.locations[li];
    LocationTimes& t = times.emplace_back();
    for (std::size_t c = 0; c < l.calls(); ++c)
      t.mpi = add_saturating(t.mpi, l.call_leave[c] - l.call_enter[c]);
    if (l.calls() == 0) continue;
    t.has_calls = true;
    t.first_enter = l.call_enter.front();
    t.last_leave = l.call_leave.back();
  }
  return times;
}

std::vector<RankSummary> summarize_ranks(const Trace& trace, std::span<const LocationTimes> times) {
  std::vector<RankSummary> ranks(static_cast<std::size_t>(std::max(trace.world_size, 0)));
  std::vector<TimeNs> first(ranks.size(), std::numeric_limits<TimeNs>::max());
  std::vector<TimeNs> last(ranks.size(), std::numeric_limits<TimeNs>::min());
  for (std::size_t r = 0; r < ranks.size(); ++r) ranks[r].rank = static_cast<std::int32_t>(r);
  for (std::size_t li = 0; li < trace.locations.size(); ++li) {
    const Location& l = trace.locations[li];
    if (l.rank < 0 || static_cast<std::size_t>(l.rank) >= ranks.size()) continue;
    RankSummary& r = ranks[l.rank];
    if (l.thread == 0 || r.node.empty()) r.node = node_name(trace, l);
    ++r.threads;
    const LocationTimes& t = times[li];
    r.mpi_time_s += seconds(t.mpi);
    if (!t.has_calls) continue;
    first[l.rank] = std::min(first[l.rank], t.first_enter);
    last[l.rank] = std::max(last[l.rank], t.last_leave);
  }
  for (std::size_t r = 0; r < ranks.size(); ++r)
    if (last[r] > first[r]) ranks[r].time_s = seconds(last[r] - first[r]);
  return ranks;
}

TraceInfo describe_trace(const Trace& trace) {
  TraceInfo t;
  t.path = trace.path;
  t.program = trace.program;
  t.world_size = trace.world_size;
  t.locations = static_cast<std::uint32_t>(trace.locations.size());
  t.nodes = trace.nodes;
  t.communicators = static_cast<std::uint32_t>(trace.comms.size());
  t.duration_s = seconds(trace.end - trace.begin);
  t.events = trace.event_count;
  return t;
}

Summary summarize_run(const Trace& trace, std::span<const LocationTimes> times,
                      const MatchCounts& counts, std::uint64_t collectives,
                      const AnalysisSettings& settings, const std::vector<Finding>& findings) {
  Summary s;
  for (const LocationTimes& t : times) {
    s.total_time_s += seconds(location_time(t));
    s.total_mpi_time_s += seconds(t.mpi);
  }
  s.findings = findings.size();
  for (const Pattern* p : settings.patterns) {
    PatternTotal total{std::string(p->id), std::string(p->description)};
    for (const Finding& f : findings) {
      if (f.pattern != p->id) continue;
      ++total.findings;
      total.occurrences += f.occurrences;
      total.wait_time_s += f.wait_time_s;
    }
    total.percent_of_total_time = s.total_time_s > 0 ? 100 * total.wait_time_s / s.total_time_s : 0;
    s.instances += total.occurrences;
    s.patterns.push_back(std::move(total));
  }
  const MatchCounts& c = counts;
  s.matching = {c.messages,
                collectives,
                c.unmatched_sends,
                c.unmatched_receives,
                c.incomplete_collectives,
                c.unmatched_requests,
                c.mismatched_collectives,
                c.invalid_ops};
  s.clock = {c.clock_violations,
             trace.clock.violations_before_repair,
             trace.clock.violations_after_repair,
             trace.clock.max_repair_shift_s,
             trace.clock.offsets_per_location_min,
             trace.clock.max_offset_stddev_s};
  s.warnings = warnings_of(trace, c);
  for (const Pattern* p : settings.patterns) s.options.patterns.emplace_back(p->id);
  s.options.eager_threshold_bytes = settings.rules.eager_threshold;
  s.options.min_wait_s = seconds(settings.rules.min_wait);
  s.options.sendrecv_window_s = seconds(settings.rules.sendrecv_window);
  return s;
}

}  // namespace collwrap
