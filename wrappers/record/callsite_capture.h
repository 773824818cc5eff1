// The process-wide call-site table behind intern_callsite() (recorder.h).
#pragma once

#include <cstdint>

#include "record/callsite_table.h"

namespace collwrap::tracer {

CallSiteTable& process_callsites() noexcept;

// Frames per call site (COLLWRAP_CALLSITE_DEPTH): 0 = none, 1 = the caller of the MPI
// function, more = that many frames of its call stack.
void set_callsite_depth(std::uint32_t depth) noexcept;

}  // namespace collwrap::tracer
