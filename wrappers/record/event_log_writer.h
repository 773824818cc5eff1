// Turns a thread's event log (event_log.h) into OTF2 records on its event writer.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>

#include "record/recorder.h"

namespace collwrap::tracer {

// Writes the records in [begin, end) in order. `attributes` is the location's reusable
// attribute list (for the CallSite, PcontrolLevel and UpcSyncFlags attributes); `last_time` is
// the timestamp of the location's previous OTF2 record, updated here: OTF2 rejects a timestamp
// older than the previous one and would stop the trace, so a clock that stepped back by a few
// ticks (a thread migrating between cores) is clamped instead. Stops at the first OTF2 error.
OTF2_ErrorCode write_event_log(OTF2_EvtWriter* writer, OTF2_AttributeList* attributes,
                               Ticks& last_time, const std::uint64_t* begin,
                               const std::uint64_t* end) noexcept;

}  // namespace collwrap::tracer
