// Completes an archive left by ranks that ended without the collective finalize (MPI_Abort,
// exit without MPI_Finalize): each such rank closed its event files and wrote a sidecar with
// its local definitions. This unifies the sidecars and writes what the archive lacks: the
// global definitions, each location's mapping tables and clock offsets, and the anchor file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collwrap::tracer {

struct RecoveryReport {
  bool ok = false;
  std::string problem;  // why not, for the user
  std::uint32_t world_size = 0;
  std::vector<std::uint32_t> ranks;   // ranks whose sidecar was used
  std::vector<std::string> warnings;  // unreadable sidecars, timer mismatches, ...
};

RecoveryReport recover_archive(const std::string& directory);

}  // namespace collwrap::tracer
