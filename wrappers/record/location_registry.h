// Per-thread recorders: every thread that makes a traced call while tracing gets its own OTF2
// location and event writer, found again through a thread_local pointer (no lock on the hot path).
#pragma once

#include <otf2/otf2.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "record/adapter_registry.h"
#include "record/callsite_table.h"
#include "record/event_log.h"
#include "record/local_definitions.h"
#include "record/recorder.h"

namespace collwrap::tracer {

struct ThreadRecorder::State {
  EventLog log;  // first: the one cache line every record touches
  // The last Enter of each region (index RegionRef): its call site and, when the site is the
  // return address alone (COLLWRAP_CALLSITE_DEPTH 0 or 1), that address. An Enter from the same
  // call site as the previous Enter of its region carries no CallSite attribute: calls in a
  // loop cost neither the attribute's bytes nor its time (see README, "Trace format"); from the
  // same return address they do not even look the call site up. The region's other recent
  // return address and its site are kept too, so that a loop calling one function from two
  // lines (two MPI_Wait in a row) does not look its sites up on every call either.
  struct LastEnter {
    void* return_address = nullptr;  // nullptr: unknown, look the site up
    CallSiteRef site = kNoCallSite;
    void* other_return_address = nullptr;
    CallSiteRef other_site = kNoCallSite;
  };
  std::vector<LastEnter> last_enter = std::vector<LastEnter>(region_count());

  OTF2_EvtWriter* writer = nullptr;
  OTF2_AttributeList* attributes = nullptr;  // reused for the attributes of a record
  LogStorage log_storage;
  std::uint32_t thread_index = 0;
  std::uint64_t events = 0;  // known once the writer is closed
  Ticks last_time = 0;       // of the last record written to OTF2

  // The slow path of appending a record taken at `t` to a full log: writes the log to OTF2,
  // then a BufferFlush record from `t` to now (so readers see the time this took), and returns
  // where the record goes. nullptr when the location is closed or OTF2 failed.
  std::uint64_t* make_room(Ticks t) noexcept;
  // Writes the log's records to OTF2 and empties the log. After an OTF2 error (reported once,
  // recording stops) the log is dropped and false returned.
  bool drain() noexcept;
};

class LocationRegistry {
 public:
  // Starts handing out locations of `world_rank` in `archive`, each with an event log of
  // `log_bytes`; thread indices restart at 0.
  void start(OTF2_Archive* archive, std::uint32_t world_rank, std::size_t log_bytes);

  // The calling thread's recorder, creating its location on first use; nullptr if OTF2
  // cannot provide a writer (reported once).
  ThreadRecorder* attach_current_thread() noexcept;

  // Writes every log to OTF2 and closes every writer, flushing its buffer to disk. Recorders stay allocated: a thread that
  // still holds one finds a null writer and records nothing.
  void close_all() noexcept;

  // Every location of this process with its event count (after close_all).
  std::vector<LocalLocation> locations();

 private:
  std::mutex mutex_;
  OTF2_Archive* archive_ = nullptr;
  std::uint32_t world_rank_ = 0;
  std::size_t log_words_ = 0;
  std::vector<std::unique_ptr<ThreadRecorder>> recorders_;
  std::vector<std::unique_ptr<ThreadRecorder::State>> states_;
};

LocationRegistry& location_registry() noexcept;

// Recording on/off for this process. thread_recorder() returns nullptr while it is off.
void set_recording(bool on) noexcept;

// Called when OTF2 refuses an event: reports once and stops recording on this rank. The
// archive is still finalized, so what was written up to here stays readable.
void recording_failed(OTF2_ErrorCode status) noexcept;

}  // namespace collwrap::tracer
