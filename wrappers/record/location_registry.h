// Per-thread recorders: every thread that makes a traced call while tracing gets its own OTF2
// location and event writer, found again through a thread_local pointer (no lock on the hot path).
#pragma once

#include <otf2/otf2.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "record/adapter_registry.h"
#include "record/callsite_table.h"
#include "record/local_definitions.h"
#include "record/recorder.h"

namespace collwrap::tracer {

struct ThreadRecorder::State {
  OTF2_EvtWriter* writer = nullptr;
  OTF2_AttributeList* attributes = nullptr;  // reused for the CallSite attribute of an Enter
  std::uint32_t thread_index = 0;
  std::uint64_t events = 0;  // known once the writer is closed
  Ticks last_time = 0;
  // The last Enter of each region (index RegionRef): its call site and, when the site is the
  // return address alone (COLLWRAP_CALLSITE_DEPTH 0 or 1), that address. An Enter from the same
  // call site as the previous Enter of its region carries no CallSite attribute: calls in a
  // loop cost neither the attribute's bytes nor its time (see README, "Trace format"); from the
  // same return address they do not even look the call site up.
  struct LastEnter {
    void* return_address = nullptr;  // nullptr: unknown, look the site up
    CallSiteRef site = kNoCallSite;
  };
  std::vector<LastEnter> last_enter = std::vector<LastEnter>(region_count());

  // OTF2 rejects a timestamp older than the previous one and would stop the trace; a clock
  // that steps back by a few ticks (a thread migrating between cores) is clamped instead.
  Ticks ordered(Ticks t) noexcept {
    if (t < last_time) return last_time;
    last_time = t;
    return t;
  }
};

class LocationRegistry {
 public:
  // Starts handing out locations of `world_rank` in `archive`; thread indices restart at 0.
  void start(OTF2_Archive* archive, std::uint32_t world_rank);

  // The calling thread's recorder, creating its location on first use; nullptr if OTF2
  // cannot provide a writer (reported once).
  ThreadRecorder* attach_current_thread() noexcept;

  // Closes every writer, flushing its buffer to disk. Recorders stay allocated: a thread that
  // still holds one finds a null writer and records nothing.
  void close_all() noexcept;

  // Every location of this process with its event count (after close_all).
  std::vector<LocalLocation> locations();

 private:
  std::mutex mutex_;
  OTF2_Archive* archive_ = nullptr;
  std::uint32_t world_rank_ = 0;
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
