// Writes unified definitions into an OTF2 archive: the global definition file (rank 0) and
// each location's local definitions (id mapping tables and clock offsets).
#pragma once

#include <otf2/otf2.h>

#include <span>

#include "record/definitions_unifier.h"
#include "record/local_definitions.h"

namespace collwrap::tracer {

// The one attribute the tracer defines: Enter records carry the MPI call's call site.
inline constexpr OTF2_AttributeRef kCallSiteAttribute = 0;

OTF2_ErrorCode write_global_definitions(OTF2_GlobalDefWriter* writer, const GlobalDefinitions& g);

OTF2_ErrorCode write_local_definitions(OTF2_DefWriter* writer, const RankMapping& mapping,
                                       std::span<const ClockOffsetSample> offsets);

}  // namespace collwrap::tracer
