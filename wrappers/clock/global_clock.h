// A global clock for the measurement programs (collwrap-timercheck, collwrap-bench): the
// tracer's timer plus this rank's offset to rank 0 from the tracer's clock synchronization,
// calibrated so that ticks convert to seconds. Global time = local ticks + offset.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "record/clock_offset.h"
#include "record/recorder.h"
#include "record/tracer_config.h"

namespace collwrap::tracer {

class GlobalClock {
 public:
  // Collective over `comm`: synchronizes with `kind` (patience as COLLWRAP_CLOCKSYNC_ROUNDS)
  // and calibrates the timer's rate. The timer must have been chosen (timer::select) before.
  GlobalClock(MPI_Comm comm, ClockSyncKind kind, std::uint32_t patience);

  std::int64_t now() const { return std::int64_t(collwrap::tracer::now()) + offset_.offset; }
  double seconds(std::int64_t ticks) const { return double(ticks) / rate_; }
  double microseconds(std::int64_t ticks) const { return double(ticks) * 1e6 / rate_; }
  std::int64_t ticks(double microseconds) const { return std::int64_t(microseconds * rate_ / 1e6); }

  // Waits until global time `deadline`: spinning for the last stretch, so that the return is
  // punctual, and yielding the processor before. When this node runs more ranks than it has
  // cores, it yields all the way: a spinning rank would keep the rank it waits for off the
  // processor. Returns false when the deadline had already passed on entry.
  bool wait_until(std::int64_t deadline) const;

  double rate() const { return rate_; }  // ticks per second
  const OffsetEstimate& offset() const { return offset_; }
  const char* sync_name() const { return sync_name_; }  // the algorithm `auto` resolved to
  double sync_ms() const { return sync_ms_; }           // this rank's time in the synchronization

 private:
  OffsetEstimate offset_;
  double rate_ = 1e9;
  const char* sync_name_ = "off";
  double sync_ms_ = 0;
  bool oversubscribed_ = false;  // more ranks on this node than cores
};

}  // namespace collwrap::tracer
