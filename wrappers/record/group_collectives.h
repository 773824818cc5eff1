// OTF2's collective callbacks over any ProcessGroup, for adapters whose paradigm has no OTF2
// helper header (OTF2 ships one for MPI only): every operation is carried by the group's
// byte-wise gather to, broadcast from and scatter from process 0. OTF2 calls these a handful of
// times per archive (opening and closing files), so the extra copies do not matter.
#pragma once

#include <otf2/otf2.h>

#include "record/process_group.h"

namespace collwrap::tracer {

// Collective: sets the callbacks on `archive`; `group` must outlive the archive.
OTF2_ErrorCode attach_group_collectives(OTF2_Archive* archive, ProcessGroup& group);

}  // namespace collwrap::tracer
