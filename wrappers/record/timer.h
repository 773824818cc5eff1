// The tracer's clock (now() in recorder.h is its hot path). Selection happens once, before
// MPI_Init, from COLLWRAP_TIMER; afterwards every read is a switch on one global value.
#pragma once

#include <cstdint>

#include "record/timer_math.h"
#include "record/tracer_config.h"

namespace collwrap::tracer::timer {

// Chooses the timer: `auto` and `tsc` use the TSC only when it is invariant (else
// CLOCK_MONOTONIC; an explicit `tsc` request that cannot be met is reported). Returns the
// timer actually in use.
TimerKind select(TimerKind requested) noexcept;

TimerKind active() noexcept;

// MPI_Wtime must not be called before MPI_Init; the other timers can.
bool usable_before_mpi_init() noexcept;

// A reading of the active timer paired with CLOCK_MONOTONIC, for calibration.
TimerSample sample() noexcept;

// Ticks per second of the active timer: exact for nanosecond timers, measured between two
// samples for the TSC.
double resolution(TimerSample earlier, TimerSample later) noexcept;

std::int64_t monotonic_ns() noexcept;
std::int64_t realtime_ns() noexcept;

}  // namespace collwrap::tracer::timer
