// Loads one location's local definitions (clock offsets) and event stream into its Location:
// one call per outermost MPI region instance (Enter…Leave), one op per OTF2 MPI record.
//
// A damaged or missing stream is not an error: the loader keeps what it could read, closes
// calls left open at the last timestamp seen, and describes the damage in its report. A record
// whose timestamp cannot be real (timestamp_plausibility.h), or that follows an error OTF2
// reported, ends the stream like a truncation. Damaged local definitions (clock offsets, id
// mappings) leave the location's events out: their times and references cannot be trusted.
//
// Event files are read by the analyzer's own decoder (otf2_event_decoder.h). Where it meets
// damage in a whole chunk, or a record libotf2 would hand over differently, the location is
// read again through libotf2's reader, whose findings the damage messages report; damage in
// the last chunk, which libotf2 would read on past the file's data, and a cut, end the stream
// at that record.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "event_file_check.h"
#include "location_report.h"
#include "otf2_definitions.h"
#include "time_normalization.h"
#include "timestamp_plausibility.h"
#include "trace_model.h"

namespace collwrap {

struct EventLoadContext {
  OTF2_Reader* reader;  // shared by all threads; its locking callbacks must be set
  const Definitions& defs;
  const std::vector<RegionInfo>& regions;
  const std::vector<Communicator>& comms;
  TickConverter ticks;
  TimestampCheck timestamps;
  std::filesystem::path archive;  // the folder that holds the anchor file
  std::string files;              // the folder of the location files within it: "traces"
  // Event files are read with the analyzer's own decoder where it can (otf2_event_decoder.h),
  // else through libotf2; false: always through libotf2 (to compare the two).
  bool own_decoder = true;
};

// "rank 3 thread 0", for messages.
std::string location_name(const Location& loc);

// Called after each batch of records with the number just read (for progress displays).
using RecordsRead = std::function<void(std::uint64_t records)>;

// Fills `loc` (whose rank, thread and otf2_id are set). Safe to call concurrently for
// different locations.
LocationReport load_location_events(const EventLoadContext& context, const StreamLimits& limits,
                                    Location& loc, const RecordsRead& records_read = {});

}  // namespace collwrap
