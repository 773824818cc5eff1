// Reads an OTF2 archive into the in-memory Trace, with the archive's clock offsets applied.
//
// Steps: the path and the anchor file are checked (archive_path.h, anchor_file_check.h);
// the global definitions become the Trace's tables (otf2_definitions.h); each location's
// event file is checked (event_file_check.h) and its clock offsets and events are loaded,
// locations in parallel (otf2_events.h); times become ns from the first event
// (time_normalization.h).
//
// Event files are decoded by the analyzer's own decoder where it can (otf2_event_decoder.h,
// about twice libotf2's speed), else through libotf2; the result is the same either way.
//
// Clocks: each location's ClockOffset records are applied while reading (linear
// interpolation between them, as libotf2 does); Trace::clock gets how many there were and their
// largest standard deviation. Repairing the violations that remain (the controlled logical clock)
// needs matched messages and collective instances, so it is a separate pass over the returned
// Trace after match_trace(): it moves the times of single events (call_enter, call_leave,
// op_time) keeping each location's order, and fills Trace::clock's violation figures, the
// "before" figure being MatchCounts::clock_violations.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "location_report.h"
#include "location_shares.h"
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
  // Analyzer processes sharing the archive (distributed/): this one reads only the events of
  // share `process` of split_locations(…, processes); the other locations keep their
  // definitions and no events.
  unsigned process = 0;
  unsigned processes = 1;
  // False: every event file through libotf2, not the analyzer's own decoder (to compare them).
  bool own_decoder = true;
};

// Called after each location is loaded with the fraction read so far (of the events the
// archive declares, or of the locations when it declares none): from the reading threads, but
// one call at a time. Once per location, so it costs nothing next to the events.
using ReadProgress = std::function<void(double fraction)>;

// `path` is the anchor file (traces.otf2) or the archive directory. Throws TraceUsageError or
// TraceReadError; damage to single locations goes to Trace::warnings instead.
// read_trace = finish_trace(read_locations(...)); analyzer processes that share an archive
// each read their locations and one of them finishes the whole trace.
Trace read_trace(const std::string& path, const ReadOptions& options = {},
                 const ReadProgress& progress = {});

// The archive's definitions and the events of options.locations, not yet finished: times are
// as OTF2 gives them (ns from the timer's origin) and the reports not yet in the trace.
struct LocationsRead {
  Trace trace;
  std::vector<LocationReport> reports;  // one per location; default for locations not read
  std::uint64_t timer_resolution = 1;   // ticks per second
  std::vector<LocationRange> shares;    // every process's share, options.process's read
};
LocationsRead read_locations(const std::string& path, const ReadOptions& options = {},
                             const ReadProgress& progress = {});

// Adds the locations' reports to the trace's warnings and event count, moves times so that
// the earliest event is at 0 and builds the trace's indexes.
Trace finish_trace(LocationsRead read, unsigned threads);

// Its first step alone: the reports (one per location) go into the trace's warnings, event
// count and clock figures; the messages already in trace.warnings (about the archive as a
// whole) come after the locations'.
void add_reports(Trace& trace, const std::vector<LocationReport>& reports,
                 std::uint64_t timer_resolution);

}  // namespace collwrap
