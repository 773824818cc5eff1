// The critical path per compute segment type and per MPI call site, and its imbalance: the
// time a segment type spends on the path minus its mean time per rank (Böhme et al.,
// "Scalable critical-path based performance analysis", IPDPS 2012). A segment with a large
// imbalance is one whose shortening on the ranks that carry the path shortens the run.
#pragma once

#include "cause_result.h"
#include "compute_segments.h"
#include "critical_path.h"

namespace collwrap {

SegmentDescription describe_segment(const Trace& trace, const SegmentTypes& types,
                                    std::uint32_t type);

// Sums the steps of walk_critical_path per segment type and per call site as they come.
class CriticalPathTally {
 public:
  CriticalPathTally(const Trace& trace, const ReplayGraph& graph, const SegmentTypes& types);
  void add(const CriticalPathStep& step);
  // The `top` segment types and call sites with the most time on the path.
  CriticalPathSummary summary(const CriticalPathTotals& totals, std::size_t top) const;

 private:
  const Trace& trace_;
  const ReplayGraph& graph_;
  const SegmentTypes& types_;
  std::vector<TimeNs> on_path_;  // per segment type
  // Call sites, then (for calls without a site) MPI functions.
  std::vector<TimeNs> site_time_;
  std::vector<std::uint32_t> site_region_;  // per call site: the region of its first call seen
  TimeNs compute_ = 0, mpi_ = 0;
};

}  // namespace collwrap
