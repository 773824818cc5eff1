// The timeline (--timeline): Chrome's trace-event JSON, which chrome://tracing and Perfetto
// (ui.perfetto.dev) open. One process per rank and one thread per rank's thread; MPI calls are
// complete slices named by function with file:line in their arguments, messages are flow
// arrows from the sending call to the receiving one, and the worst instances of each finding
// are slices of category "pattern" inside the call that waited.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>

#include "analysis_result.h"
#include "matching.h"
#include "trace_model.h"

namespace collwrap {

struct TimelineOptions {
  // Only calls overlapping [start, end] (trace time, ns) are written.
  TimeNs start = 0;
  TimeNs end = std::numeric_limits<TimeNs>::max();
  // At most this many MPI call slices, the earliest first, so that a huge trace still gives
  // a file a browser can open (about 150 bytes each).
  std::size_t max_calls = 500'000;
};

struct TimelineCounts {
  std::size_t calls = 0;          // call slices written
  std::size_t calls_dropped = 0;  // in the window but beyond max_calls
  std::size_t messages = 0;       // flow arrows written
};

TimelineCounts write_timeline(const Trace& trace, const Matching& matching,
                              const AnalysisResult& result, const TimelineOptions& options,
                              std::ostream& out);

}  // namespace collwrap
