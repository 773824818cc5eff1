// Moving the locations one analyzer process read to another: every column of each location,
// its Pcontrol calls and its read report, and the warnings about the archive as a whole.
// Columns go as they are in memory (both processes run the same binary on one kind of
// machine), in pieces small enough for MPI's int counts.
#pragma once

#include "trace_reader.h"

namespace collwrap {

void send_share(const LocationsRead& read, const LocationRange& share, int to);

// Fills the share's locations and reports in `read` (which holds the archive's definitions)
// and appends the sender's archive warnings to read.trace.warnings.
void receive_share(LocationsRead& read, const LocationRange& share, int from);

}  // namespace collwrap
