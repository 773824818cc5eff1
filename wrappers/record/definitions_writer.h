// Writes unified definitions into an OTF2 archive: the global definition file (rank 0) and
// each location's local definitions (id mapping tables and clock offsets).
#pragma once

#include <otf2/otf2.h>

#include <span>

#include "record/definitions_unifier.h"
#include "record/local_definitions.h"

namespace collwrap::tracer {

// The attributes the tracer defines: Enter records carry the MPI call's call site, and the
// Enter of a profiling-control call (MPI_Pcontrol) carries its level, and the RmaCollectiveEnd
// of a UPC relocalization collective its UPC_IN_*/UPC_OUT_* modes (recorder.h).
inline constexpr OTF2_AttributeRef kCallSiteAttribute = 0;
inline constexpr OTF2_AttributeRef kPcontrolLevelAttribute = 1;
inline constexpr OTF2_AttributeRef kUpcSyncFlagsAttribute = 2;

OTF2_ErrorCode write_global_definitions(OTF2_GlobalDefWriter* writer, const GlobalDefinitions& g);

OTF2_ErrorCode write_local_definitions(OTF2_DefWriter* writer, const RankMapping& mapping,
                                       std::span<const ClockOffsetSample> offsets);

}  // namespace collwrap::tracer
