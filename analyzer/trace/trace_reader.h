// Reads an OTF2 archive into the in-memory Trace, with the archive's clock offsets applied.
//
// Steps: the path and the anchor file are checked (archive_path.h, anchor_file_check.h);
// the global definitions become the Trace's tables (otf2_definitions.h); each location's
// event file is checked (event_file_check.h) and its clock offsets and events are loaded,
// locations in parallel (otf2_events.h); times become ns from the first event
// (time_normalization.h).
//
// Clocks: OTF2 applies each location's ClockOffset records while reading (linear
// interpolation between them); Trace::clock gets how many there were and their largest
// standard deviation. Repairing the violations that remain (the controlled logical clock)
// needs matched messages and collective instances, so it is a separate pass over the returned
// Trace after match_trace(): it moves the times of single events (call_enter, call_leave,
// op_time) keeping each location's order, and fills Trace::clock's violation figures, the
// "before" figure being MatchCounts::clock_violations.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

#include "trace_model.h"

namespace collwrap {

// The path does not name an archive (missing, not a directory with traces.otf2, …): the
// user typed something wrong. The analyzer exits 2.
struct TraceUsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The archive exists but cannot be analyzed at all (unreadable definitions, …). Exit 1.
// Partial damage (a rank's event file missing or truncated) is not an error: it becomes a
// ReadWarnings entry and the analysis goes on with what is there.
struct TraceReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ReadOptions {
  unsigned threads = 0;  // 0 = one per core, capped at the number of locations
};

// Called after each location is loaded with the fraction read so far (of the events the
// archive declares, or of the locations when it declares none): from the reading threads, but
// one call at a time. Once per location, so it costs nothing next to the events.
using ReadProgress = std::function<void(double fraction)>;

// `path` is the anchor file (traces.otf2) or the archive directory. Throws TraceUsageError or
// TraceReadError; damage to single locations goes to Trace::warnings instead.
Trace read_trace(const std::string& path, const ReadOptions& options = {},
                 const ReadProgress& progress = {});

}  // namespace collwrap
