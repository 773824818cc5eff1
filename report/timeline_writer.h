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
#include <string>
#include <vector>

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

// What a timeline shows, chosen once for every timeline format (--timeline's trace events and
// the HTML report's timeline): the MPI calls overlapping the window, the earliest first and at
// most max_calls of them, and the matched messages whose sending and receiving calls are both
// among them.
struct TimelineCall {
  TimeNs enter;
  std::uint32_t loc;   // index into Trace::locations
  std::uint32_t call;  // index into that location's calls
};

struct TimelineMessage {
  std::size_t message;  // index into Matching::messages
  std::size_t from;     // index into TimelineSelection::calls: the call that sent it
  std::size_t to;       // the call that completed its receive
};

struct TimelineSelection {
  std::vector<TimelineCall> calls;        // by enter, then location, then call
  std::size_t calls_dropped = 0;          // in the window but beyond max_calls
  std::vector<TimelineMessage> messages;  // by message index
};

TimelineSelection select_timeline(const Trace& trace, const Matching& matching,
                                  const TimelineOptions& options);

// Whether a worst instance of a finding (its wait from time_s on) overlaps the window.
bool instance_in_window(const InstanceSample& instance, const TimelineOptions& options);

// "file:line" of a call site, "file" without a line, "" for kNone.
std::string call_site_text(const Trace& trace, std::uint32_t site);

struct TimelineCounts {
  std::size_t calls = 0;          // call slices written
  std::size_t calls_dropped = 0;  // in the window but beyond max_calls
  std::size_t messages = 0;       // flow arrows written
  std::size_t rma_transfers = 0;  // one-sided puts, gets and atomics marked on their origin
};

TimelineCounts write_timeline(const Trace& trace, const Matching& matching,
                              const AnalysisResult& result, const TimelineOptions& options,
                              std::ostream& out);

}  // namespace collwrap
