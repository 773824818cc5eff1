// Reads an OTF2 archive into the in-memory Trace, with the archive's clock offsets applied.
#pragma once

#include <stdexcept>
#include <string>

#include "trace_model.h"

namespace collwrap {

// The path does not name an archive (missing, not a directory with traces.otf2, …): the
// user typed something wrong. The analyzer exits 2.
struct TraceUsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The archive exists but cannot be analyzed at all (unreadable definitions, …). Exit 1.
// Partial damage (a rank's event file missing or truncated) is not an error: it becomes a
// ReadWarnings entry and the analysis goes on with what is there.
struct TraceReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ReadOptions {
  unsigned threads = 0;  // 0 = one per core, capped at the number of locations
};

// `path` is the anchor file (traces.otf2) or the archive directory.
Trace read_trace(const std::string& path, const ReadOptions& options = {});

}  // namespace collwrap
