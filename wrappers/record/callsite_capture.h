// The process-wide call-site table behind intern_callsite() (recorder.h).
#pragma once

#include <cstdint>

#include "record/callsite_table.h"

namespace collwrap::tracer {

CallSiteTable& process_callsites() noexcept;

// Frames per call site (COLLWRAP_CALLSITE_DEPTH): 0 = none, 1 = the caller of the MPI
// function, more = that many frames of its call stack.
void set_callsite_depth(std::uint32_t depth) noexcept;

// True when a call site is the wrapper's return address alone (depth 0 or 1), so that two
// calls from one return address share their call site without a lookup.
bool callsite_is_return_address() noexcept;

}  // namespace collwrap::tracer
