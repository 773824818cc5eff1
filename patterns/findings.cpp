#include "findings.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <span>
#include <tuple>

#include "finding_aggregator.h"
#include "finding_text.h"
#include "parallel_for.h"
#include "result_units.h"
#include "run_patterns.h"
#include "traffic_totals.h"

namespace collwrap {
namespace {

const char* send_mode_name(SendMode mode) {
  switch (mode) {
    case SendMode::Standard:
      return "standard";
    case SendMode::Buffered:
      return "buffered";
    case SendMode::Synchronous:
      return "synchronous";
    case SendMode::Ready:
      return "ready";
    case SendMode::None:
      break;
  }
  return "unknown";
}

// Peers as a finding lists them: each rank once, in the order of its first appearance, with
// the known threads of it ascending.
void split_peers(std::span<const Peer> peers, std::vector<std::int32_t>& ranks,
                 PeerThreads& threads) {
  for (const Peer& p : peers) {
    const auto at = std::find(ranks.begin(), ranks.end(), p.rank);
    const auto i = static_cast<std::size_t>(at - ranks.begin());
    if (at == ranks.end()) {
      ranks.push_back(p.rank);
      threads.emplace_back();
    }
    if (p.thread == kUnknownThread) continue;
    std::vector<std::int32_t>& of_rank = threads[i];
    const auto pos = std::lower_bound(of_rank.begin(), of_rank.end(), p.thread);
    if (pos == of_rank.end() || *pos != p.thread) of_rank.insert(pos, p.thread);
  }
}

SourceLocation source_of_call(const Trace& trace, std::uint32_t loc, std::uint32_t call) {
  const Location& l = trace.locations[loc];
  SourceLocation s;
  s.function = trace.regions[l.call_region[call]].name;
  if (const std::uint32_t site = l.call_callsite[call]; site != kNone) {
    s.file = trace.callsites[site].file;
    s.line = trace.callsites[site].line;
  }
  return s;
}

FindingDetails details_of(const Trace& trace, const FindingStats& stats) {
  FindingDetails d;
  for (std::size_t mode = 0; mode < stats.send_modes.size(); ++mode)
    if (stats.send_modes[mode] > 0)
      d.send_modes.emplace_back(send_mode_name(static_cast<SendMode>(mode)),
                                stats.send_modes[mode]);
  std::stable_sort(d.send_modes.begin(), d.send_modes.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  d.same_source = stats.same_source;
  d.different_source = stats.different_source;
  if (stats.distances > 0) {
    const double n = static_cast<double>(stats.distances);
    d.optimal_distance_s = seconds(stats.optimal_distance_sum) / n;
    d.current_distance_s = seconds(stats.actual_distance_sum) / n;
  }
  d.transfers = stats.transfers;
  d.transfer_bytes = stats.transfer_bytes;
  d.mean_pair_bytes = stats.mean_pair_bytes;
  if (stats.related_call != kNone)
    d.related_call = source_of_call(trace, stats.loc, stats.related_call);
  return d;
}

Finding finding_of(const Trace& trace, const FindingStats& stats) {
  const Location& l = trace.locations[stats.loc];
  Finding f;
  f.pattern = std::string(stats.pattern->id);
  f.rank = l.rank;
  f.thread = l.thread;
  f.node = node_name(trace, l);
  if (stats.callsite != kNone) {
    const CallSite& site = trace.callsites[stats.callsite];
    f.file = site.file;
    f.line = site.line;
    f.function = site.function;
  }
  f.mpi_function = trace.regions[stats.region].name;
  split_peers(stats.peers, f.peers, f.peer_threads);
  f.occurrences = stats.occurrences;
  f.wait_time_s = seconds(stats.total);
  f.max_wait_s = seconds(stats.max);
  f.details = details_of(trace, stats);
  for (const FindingStats::Sample& s : stats.top) {
    InstanceSample& sample = f.top_instances.emplace_back();
    sample.time_s = seconds(l.call_enter[s.call] - trace.begin);
    sample.wait_s = seconds(s.idle);
    split_peers(s.peers, sample.peers, sample.peer_threads);
  }
  f.comment = finding_comment(f, *stats.pattern);
  f.recommendation = finding_recommendation(f, *stats.pattern);
  return f;
}

// Worst first; ties in an order that does not depend on the order the findings were made in,
// so that reports are reproducible and the same however the trace was divided.
void sort_findings(std::vector<Finding>& findings) {
  std::sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(b.wait_time_s, a.pattern, a.rank, a.thread, a.file, a.line, a.function,
                    a.mpi_function, b.occurrences, b.max_wait_s) <
           std::tie(a.wait_time_s, b.pattern, b.rank, b.thread, b.file, b.line, b.function,
                    b.mpi_function, a.occurrences, a.max_wait_s);
  });
}

}  // namespace

Findings find_findings(const Trace& trace, const Matching& matching,
                       const FindingSettings& settings, unsigned threads) {
  const std::size_t rules = settings.patterns.size();
  std::vector<FindingAggregator> aggregators;
  aggregators.reserve(rules);
  for (std::size_t i = 0; i < rules; ++i) aggregators.emplace_back(trace, settings.top_instances);
  std::vector<std::uint64_t> dropped(rules, 0);
  RuleContext context{trace, matching, settings.rules, settings.totals, op_kinds_in(trace)};
  // Made once for all the rules that read them.
  std::optional<TrafficTotals> totals;
  if (context.totals == nullptr && reads_totals(settings.patterns))
    context.totals = &totals.emplace(traffic_totals(context));
  parallel_for(rules, threads, [&](std::size_t i) {
    dropped[i] = run_patterns(context, std::span(settings.patterns).subspan(i, 1), aggregators[i],
                              settings.at);
  });
  Findings out;
  for (std::size_t i = 0; i < rules; ++i) {
    out.instances_below_min_wait += dropped[i];
    for (const FindingStats& stats : aggregators[i].findings())
      out.findings.push_back(finding_of(trace, stats));
  }
  sort_findings(out.findings);
  return out;
}

Findings merge_findings(std::vector<Findings> parts) {
  Findings out;
  for (Findings& part : parts) {
    out.instances_below_min_wait += part.instances_below_min_wait;
    std::move(part.findings.begin(), part.findings.end(), std::back_inserter(out.findings));
  }
  sort_findings(out.findings);
  return out;
}

}  // namespace collwrap
