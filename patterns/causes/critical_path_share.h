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

CriticalPathSummary summarize_critical_path(const Trace& trace, const ReplayGraph& graph,
                                            const SegmentTypes& types, const ReplayTimes& times,
                                            const CriticalPath& path, std::size_t top);

}  // namespace collwrap
