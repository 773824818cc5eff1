// read_trace(): anchor file → OTF2 reader → definitions → events of every location (in
// parallel) → times from 0. A clock-repair pass needs matched messages, so it runs after
// match_trace() on the Trace this returns; the reader only applies the recorded offsets.
#include "trace_reader.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>

#include "anchor_file_check.h"
#include "archive_path.h"
#include "definitions_file_check.h"
#include "event_file_check.h"
#include "otf2_definitions.h"
#include "otf2_error_log.h"
#include "otf2_events.h"
#include "otf2_locking.h"
#include "parallel_for.h"
#include "time_normalization.h"

namespace collwrap {
namespace {

struct ReaderCloser {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
using ReaderHandle = std::unique_ptr<OTF2_Reader, ReaderCloser>;

TraceUsageError not_an_archive(const std::string& anchor, const std::string& why) {
  return TraceUsageError(anchor + " cannot be opened as an OTF2 archive (" + why +
                         "); give the traces.otf2 of an archive written by libcollwrap (or "
                         "another OTF2 3.x writer)");
}

ReaderHandle open_reader(const std::string& anchor) {
  if (const std::string problem = check_anchor_file(anchor); !problem.empty())
    throw not_an_archive(anchor, problem);
  ReaderHandle reader(OTF2_Reader_Open(anchor.c_str()));
  if (!reader) throw not_an_archive(anchor, "OTF2 rejects its anchor file");
  // Locations are read by several threads through this one reader.
  if (OTF2_Reader_SetSerialCollectiveCallbacks(reader.get()) != OTF2_SUCCESS ||
      OTF2_Pthread_Reader_SetLockingCallbacks(reader.get(), nullptr) != OTF2_SUCCESS)
    throw TraceReadError("the OTF2 reader for " + anchor + " cannot be set up");
  return reader;
}

LocationReport read_location(const EventLoadContext& context, const EventFiles& files,
                             std::uint64_t declared_events, Location& loc,
                             const RecordsRead& records_read) {
  const std::optional<StreamLimits> limits = files.limits(loc.otf2_id, declared_events);
  if (limits) return load_location_events(context, *limits, loc, records_read);
  LocationReport missing;
  missing.missing = true;
  missing.messages.push_back(location_name(loc) + ": the event file is missing");
  return missing;
}

void open_location_files(OTF2_Reader* reader, const Trace& trace, const LocationRange& share,
                         bool& def_files_open) {
  for (std::size_t i = share.first; i < share.end; ++i)
    if (OTF2_Reader_SelectLocation(reader, trace.locations[i].otf2_id) != OTF2_SUCCESS)
      throw TraceReadError("location " + std::to_string(trace.locations[i].otf2_id) +
                           " cannot be selected");
  def_files_open = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;  // optional in OTF2
  if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS)
    throw TraceReadError("the archive's event files cannot be opened");
}

void collect_reports(const std::vector<LocationReport>& reports, std::uint64_t timer_resolution,
                     Trace& trace) {
  std::uint32_t min_offsets = std::numeric_limits<std::uint32_t>::max();
  double max_stddev_ticks = 0;
  for (const LocationReport& r : reports) {
    trace.event_count += r.events;
    trace.warnings.unclosed_calls += r.unclosed_calls;
    trace.warnings.orphan_ops += r.orphan_ops;
    trace.warnings.missing_locations += r.missing ? 1 : 0;
    trace.warnings.messages.insert(trace.warnings.messages.end(), r.messages.begin(),
                                   r.messages.end());
    if (r.missing) continue;
    min_offsets = std::min(min_offsets, r.clock_offsets);
    max_stddev_ticks = std::max(max_stddev_ticks, r.max_offset_stddev);
  }
  trace.clock.offsets_per_location_min =
      min_offsets == std::numeric_limits<std::uint32_t>::max() ? 0 : min_offsets;
  trace.clock.max_offset_stddev_s = max_stddev_ticks / static_cast<double>(timer_resolution);
}

// Calls the ReadProgress after every batch of records and once per finished location, with
// the share of the events the archive declares. A location whose stream ends early counts as
// wholly read once it is done, so the fraction still reaches 1.
class ProgressCounter {
 public:
  ProgressCounter(const ReadProgress& callback, const std::vector<std::uint64_t>& declared_events)
      : callback_(callback), declared_(declared_events), read_(declared_events.size(), 0) {
    for (const std::uint64_t n : declared_) total_ += n;
  }
  // Null without a callback, so that the reader's batch loop pays nothing.
  RecordsRead batch_counter(std::size_t location) {
    if (!callback_) return {};
    return [this, location](std::uint64_t records) {
      const std::lock_guard lock(mutex_);
      const std::uint64_t counted = std::min(records, declared_[location] - read_[location]);
      read_[location] += counted;
      done_ += counted;
      report();
    };
  }
  void location_done(std::size_t location) {
    if (!callback_) return;
    const std::lock_guard lock(mutex_);
    done_ += declared_[location] - read_[location];
    read_[location] = declared_[location];
    ++locations_;
    report();
  }

 private:
  void report() {
    callback_(total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_)
                         : static_cast<double>(locations_) / static_cast<double>(declared_.size()));
  }

  const ReadProgress& callback_;
  const std::vector<std::uint64_t>& declared_;
  std::vector<std::uint64_t> read_;  // per location, at most what it declares
  std::uint64_t total_ = 0, done_ = 0;
  std::size_t locations_ = 0;
  std::mutex mutex_;
};

}  // namespace

LocationsRead read_locations(const std::string& path, const ReadOptions& options,
                             const ReadProgress& progress) {
  const std::string anchor = find_anchor_file(path);
  // OTF2's own messages on stderr give way to ReadWarnings and the exceptions.
  const Otf2ErrorCallback otf2_errors_collected;
  Otf2ErrorLog otf2_errors;
  ReaderHandle reader = open_reader(anchor);

  LocationsRead read;
  Trace& trace = read.trace;
  trace.path = anchor;
  const EventFiles files(reader.get(), anchor);
  const std::filesystem::path anchor_path(anchor);
  if (files.chunk_sizes())
    if (const std::string problem = check_definitions_file(
            (anchor_path.parent_path() / (anchor_path.stem().string() + ".def")).string(),
            files.chunk_sizes()->definitions);
        !problem.empty())
      throw TraceReadError("the archive's global definitions (traces.def) are damaged (" + problem +
                           ")");
  const Definitions defs = load_definitions(reader.get(), trace);
  if (!otf2_errors.empty())
    throw TraceReadError("the archive's global definitions (traces.def) are damaged (" +
                         otf2_errors.summary() + ")");
  read.timer_resolution = defs.timer.resolution;
  read.reports.resize(trace.locations.size());
  read.shares = split_locations(defs.expected_events, options.processes);
  const LocationRange share = read.shares.at(options.process);
  if (share.size() == 0) return read;

  bool def_files_open = false;
  open_location_files(reader.get(), trace, share, def_files_open);

  const EventLoadContext context{reader.get(),
                                 defs,
                                 trace.regions,
                                 trace.comms,
                                 TickConverter(defs.timer.resolution, defs.timer.global_offset),
                                 TimestampCheck(defs.timer),
                                 anchor_path.parent_path(),
                                 anchor_path.stem().string(),
                                 options.own_decoder};
  const std::size_t count = share.size();
  const std::vector<std::uint64_t> declared(
      defs.expected_events.begin() + static_cast<std::ptrdiff_t>(share.first),
      defs.expected_events.begin() + static_cast<std::ptrdiff_t>(share.end));
  ProgressCounter counter(progress, declared);
  parallel_for(count, worker_count(options.threads, count), [&](std::size_t i) {
    const std::size_t loc = share.first + i;
    read.reports[loc] =
        read_location(context, files, declared[i], trace.locations[loc], counter.batch_counter(i));
    counter.location_done(i);
  });

  if (def_files_open) OTF2_Reader_CloseDefFiles(reader.get());
  OTF2_Reader_CloseEvtFiles(reader.get());
  if (!otf2_errors.empty())  // while opening or closing the location files
    trace.warnings.messages.push_back(anchor + ": " + otf2_errors.summary());
  return read;
}

void add_reports(Trace& trace, const std::vector<LocationReport>& reports,
                 std::uint64_t timer_resolution) {
  // Messages about the archive as a whole (above) come after the locations'.
  std::vector<std::string> archive_messages = std::move(trace.warnings.messages);
  trace.warnings.messages.clear();
  collect_reports(reports, timer_resolution, trace);
  trace.warnings.messages.insert(trace.warnings.messages.end(), archive_messages.begin(),
                                 archive_messages.end());
}

Trace finish_trace(LocationsRead read, unsigned threads) {
  Trace& trace = read.trace;
  add_reports(trace, read.reports, read.timer_resolution);
  start_time_at_zero(trace, worker_count(threads, trace.locations.size()));
  trace.finish_indexes();
  return std::move(read.trace);
}

Trace read_trace(const std::string& path, const ReadOptions& options,
                 const ReadProgress& progress) {
  return finish_trace(read_locations(path, options, progress), options.threads);
}

}  // namespace collwrap
