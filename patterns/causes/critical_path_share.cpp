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

CriticalPathTally::CriticalPathTally(const Trace& trace, const SegmentTypes& types)
    : on_path(types.types(), 0),
      site_time(trace.callsites.size() + trace.regions.size(), 0),
      site_region(trace.callsites.size(), kNone) {}

void CriticalPathTally::add(const CriticalPathStep& step, std::uint32_t type,
                            const SegmentTypes& types) {
  on_path[type] += step.segment_time;
  compute += step.segment_time;
  mpi += step.call_time;
  // The call's site (or MPI function) ends the segment before it.
  const std::uint32_t end = types.finish[type];
  const std::size_t sites = site_region.size();
  site_time[end & kRegionEnd ? sites + (end & ~kRegionEnd) : end] += step.call_time;
  if (!(end & kRegionEnd) && site_region[end] == kNone)
    site_region[end] = types.finish_region[type];
}

void CriticalPathTally::merge_earlier_visited(const CriticalPathTally& before) {
  for (std::size_t t = 0; t < on_path.size(); ++t) on_path[t] += before.on_path[t];
  for (std::size_t k = 0; k < site_time.size(); ++k) site_time[k] += before.site_time[k];
  for (std::size_t k = 0; k < site_region.size(); ++k)
    if (before.site_region[k] != kNone) site_region[k] = before.site_region[k];
  compute += before.compute;
  mpi += before.mpi;
}

std::vector<TimeNs> segment_time_per_type(const ReplayGraph& graph, const SegmentTypes& types) {
  std::vector<TimeNs> total(types.types(), 0);
  for (std::uint32_t g = 0; g < graph.calls(); ++g)
    total[types.type_of_call[g]] += graph.segment(g);
  return total;
}

CriticalPathSummary CriticalPathTally::summary(const Trace& trace, const SegmentTypes& types,
                                               std::span<const TimeNs> type_time,
                                               const CriticalPathTotals& totals,
                                               std::size_t top) const {
  CriticalPathSummary s;
  s.length_s = seconds(totals.length);
  s.hops = totals.hops;
  s.compute_s = seconds(compute);
  s.mpi_s = seconds(mpi);
  const double ranks = std::max(1, trace.world_size);
  const double length = totals.length > 0 ? static_cast<double>(totals.length) : 1.0;

  std::vector<std::uint32_t> order(types.types());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return on_path[a] > on_path[b]; });
  for (std::size_t i = 0; i < order.size() && i < top && on_path[order[i]] > 0; ++i) {
    const std::uint32_t t = order[i];
    CriticalPathSegment seg;
    seg.segment = describe_segment(trace, types, t);
    seg.time_s = seconds(on_path[t]);
    seg.share = static_cast<double>(on_path[t]) / length;
    seg.mean_per_rank_s = seconds(type_time[t]) / ranks;
    seg.imbalance_s = seg.time_s - seg.mean_per_rank_s;
    s.segments.push_back(std::move(seg));
  }

  order.resize(site_time.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return site_time[a] > site_time[b]; });
  for (std::size_t i = 0; i < order.size() && i < top && site_time[order[i]] > 0; ++i) {
    const std::uint32_t k = order[i];
    CriticalPathCallSite site;
    if (k < trace.callsites.size()) {
      site.file = trace.callsites[k].file;
      site.line = trace.callsites[k].line;
      // The MPI function of the first call with this site.
      if (site_region[k] != kNone) site.mpi_function = trace.regions[site_region[k]].name;
    } else {
      site.mpi_function = trace.regions[k - trace.callsites.size()].name;
    }
    site.time_s = seconds(site_time[k]);
    site.share = static_cast<double>(site_time[k]) / length;
    s.call_sites.push_back(std::move(site));
  }
  return s;
}

}  // namespace collwrap
