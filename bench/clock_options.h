// The timer and clock-synchronization options of the collwrap-bench subcommands: --timer, --sync
// and --rounds, defaulting to the tracer's settings (COLLWRAP_TIMER, COLLWRAP_CLOCKSYNC,
// COLLWRAP_CLOCKSYNC_ROUNDS), so that a measurement uses the clock a trace of the same job would
// use.
#pragma once

#include <cstdint>

#include "arguments.h"
#include "record/tracer_config.h"

namespace collwrap::bench {

struct ClockChoice {
  tracer::TimerKind timer = tracer::TimerKind::Auto;
  tracer::ClockSyncKind sync = tracer::ClockSyncKind::Auto;
  std::uint32_t patience = 30;  // exchanges without a smaller round trip before a pair stops
};

// Throws UsageError for an invalid option; an invalid COLLWRAP_* value is reported on rank 0
// and its default used, as the tracer does. A subcommand that only takes local time
// differences passes synchronizes = false: it offers --timer alone.
ClockChoice read_clock_options(Arguments& args, bool synchronizes = true);

}  // namespace collwrap::bench
