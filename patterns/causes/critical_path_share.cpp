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

CriticalPathSummary summarize_critical_path(const Trace& trace, const ReplayGraph& graph,
                                            const SegmentTypes& types, const ReplayTimes& times,
                                            const CriticalPath& path, std::size_t top) {
  CriticalPathSummary s;
  s.length_s = seconds(path.length);
  s.hops = path.hops;
  std::vector<TimeNs> on_path(types.types(), 0), total(types.types(), 0);
  // Call sites, then (for calls without a site) MPI functions.
  std::vector<TimeNs> site_time(trace.callsites.size() + trace.regions.size(), 0);
  TimeNs compute = 0, mpi = 0;
  for (std::size_t i = 0; i < path.calls.size(); ++i) {
    const std::uint32_t g = path.calls[i];
    on_path[types.type_of_call[g]] += path.segment_time[i];
    compute += path.segment_time[i];
    mpi += path.call_time[i];
    const Location& l = trace.locations[graph.call_loc[g]];
    const std::uint32_t end = segment_end_of_call(l, graph.local(g));
    site_time[end & kRegionEnd ? trace.callsites.size() + (end & ~kRegionEnd) : end] +=
        path.call_time[i];
  }
  s.compute_s = seconds(compute);
  s.mpi_s = seconds(mpi);
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc)
    for (std::uint32_t g = graph.loc_first_call[loc]; g < graph.loc_first_call[loc + 1]; ++g)
      total[types.type_of_call[g]] +=
          times.enter[g] - (g == graph.loc_first_call[loc] ? trace.begin : times.leave[g - 1]);
  const double ranks = std::max(1, trace.world_size);
  const double length = path.length > 0 ? static_cast<double>(path.length) : 1.0;

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
    seg.mean_per_rank_s = seconds(total[t]) / ranks;
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
      for (const std::uint32_t g : path.calls) {
        const Location& l = trace.locations[graph.call_loc[g]];
        if (l.call_callsite[graph.local(g)] == k) {
          site.mpi_function = trace.regions[l.call_region[graph.local(g)]].name;
          break;
        }
      }
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
