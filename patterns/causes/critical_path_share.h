// The critical path per compute segment type and per MPI call site, and its imbalance: the
// time a segment type spends on the path minus its mean time per rank (Böhme et al.,
// "Scalable critical-path based performance analysis", IPDPS 2012). A segment with a large
// imbalance is one whose shortening on the ranks that carry the path shortens the run.
#pragma once

#include <span>
#include <vector>

#include "cause_result.h"
#include "compute_segments.h"
#include "critical_path.h"

namespace collwrap {

SegmentDescription describe_segment(const Trace& trace, const SegmentTypes& types,
                                    std::uint32_t type);

// Sums the steps of walk_critical_path per segment type and per call site as they come. The
// steps' calls need only their segment types: the call site (or MPI function) of a call is the
// end of the segment before it. A divided analysis's processes each sum the steps they walk
// and merge the sums (merge_later).
struct CriticalPathTally {
  std::vector<TimeNs> on_path;  // per segment type
  // Call sites, then (for calls without a site) MPI functions.
  std::vector<TimeNs> site_time;
  std::vector<std::uint32_t> site_region;  // per call site: the region of its first call seen
  TimeNs compute = 0, mpi = 0;

  CriticalPathTally() = default;
  CriticalPathTally(const Trace& trace, const SegmentTypes& types);
  void add(const CriticalPathStep& step, std::uint32_t type, const SegmentTypes& types);
  // Adds the sums of steps the walk visited before this tally's.
  void merge_earlier_visited(const CriticalPathTally& before);
  // The `top` segment types and call sites with the most time on the path; `type_time`: by
  // type, its segments' total length over every location.
  CriticalPathSummary summary(const Trace& trace, const SegmentTypes& types,
                              std::span<const TimeNs> type_time, const CriticalPathTotals& totals,
                              std::size_t top) const;
};

// By segment type, its segments' total length (ReplayGraph::segment) over every call.
std::vector<TimeNs> segment_time_per_type(const ReplayGraph& graph, const SegmentTypes& types);

}  // namespace collwrap
