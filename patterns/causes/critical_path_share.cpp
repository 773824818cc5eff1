#include "critical_path_share.h"

#include <algorithm>
#include <numeric>

#include "result_units.h"

namespace collwrap {

SegmentDescription describe_segment(const Trace& trace, const SegmentTypes& types,
                                    std::uint32_t type) {
  SegmentDescription d;
  SegmentEnd finish = describe_end(trace, types.finish[type], types.finish_region[type]);
  SegmentEnd start = describe_end(trace, types.start[type], types.start_region[type]);
  d.file = std::move(finish.file);
  d.line = finish.line;
  d.function = std::move(finish.function);
  d.mpi_function = std::move(finish.mpi_function);
  d.start_file = std::move(start.file);
  d.start_line = start.line;
  d.start_mpi_function = std::move(start.mpi_function);
  // The bound stops at the deepest COLLWRAP_CALLSITE_DEPTH, and on a damaged archive's cycle.
  constexpr std::size_t kDeepest = 16;
  const std::uint32_t site = types.finish[type];
  if (site != kNone && !(site & kRegionEnd))
    for (std::uint32_t c = trace.callsites[site].caller;
         c != kNone && d.call_path.size() < kDeepest; c = trace.callsites[c].caller)
      d.call_path.push_back(
          {trace.callsites[c].file, trace.callsites[c].line, trace.callsites[c].function});
  return d;
}

CriticalPathTally::CriticalPathTally(const Trace& trace, const ReplayGraph& graph,
                                     const SegmentTypes& types)
    : trace_(trace),
      graph_(graph),
      types_(types),
      on_path_(types.types(), 0),
      site_time_(trace.callsites.size() + trace.regions.size(), 0),
      site_region_(trace.callsites.size(), kNone) {}

void CriticalPathTally::add(const CriticalPathStep& step) {
  const std::uint32_t g = step.call;
  on_path_[types_.type_of_call[g]] += step.segment_time;
  compute_ += step.segment_time;
  mpi_ += step.call_time;
  const Location& l = trace_.locations[graph_.call_loc[g]];
  const std::uint32_t call = graph_.local(g);
  const std::uint32_t end = segment_end_of_call(l, call);
  site_time_[end & kRegionEnd ? trace_.callsites.size() + (end & ~kRegionEnd) : end] +=
      step.call_time;
  const std::uint32_t site = l.call_callsite[call];
  if (site != kNone && site_region_[site] == kNone) site_region_[site] = l.call_region[call];
}

CriticalPathSummary CriticalPathTally::summary(const CriticalPathTotals& totals,
                                               std::size_t top) const {
  CriticalPathSummary s;
  s.length_s = seconds(totals.length);
  s.hops = totals.hops;
  s.compute_s = seconds(compute_);
  s.mpi_s = seconds(mpi_);
  std::vector<TimeNs> total(types_.types(), 0);
  for (std::uint32_t g = 0; g < graph_.calls(); ++g)
    total[types_.type_of_call[g]] += graph_.segment(g);
  const double ranks = std::max(1, trace_.world_size);
  const double length = totals.length > 0 ? static_cast<double>(totals.length) : 1.0;

  std::vector<std::uint32_t> order(types_.types());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return on_path_[a] > on_path_[b]; });
  for (std::size_t i = 0; i < order.size() && i < top && on_path_[order[i]] > 0; ++i) {
    const std::uint32_t t = order[i];
    CriticalPathSegment seg;
    seg.segment = describe_segment(trace_, types_, t);
    seg.time_s = seconds(on_path_[t]);
    seg.share = static_cast<double>(on_path_[t]) / length;
    seg.mean_per_rank_s = seconds(total[t]) / ranks;
    seg.imbalance_s = seg.time_s - seg.mean_per_rank_s;
    s.segments.push_back(std::move(seg));
  }

  order.resize(site_time_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return site_time_[a] > site_time_[b]; });
  for (std::size_t i = 0; i < order.size() && i < top && site_time_[order[i]] > 0; ++i) {
    const std::uint32_t k = order[i];
    CriticalPathCallSite site;
    if (k < trace_.callsites.size()) {
      site.file = trace_.callsites[k].file;
      site.line = trace_.callsites[k].line;
      // The MPI function of the first call with this site.
      if (site_region_[k] != kNone) site.mpi_function = trace_.regions[site_region_[k]].name;
    } else {
      site.mpi_function = trace_.regions[k - trace_.callsites.size()].name;
    }
    site.time_s = seconds(site_time_[k]);
    site.share = static_cast<double>(site_time_[k]) / length;
    s.call_sites.push_back(std::move(site));
  }
  return s;
}

}  // namespace collwrap
