// Creation of the OTF2 archive object with the callbacks the tracer relies on (the collective
// ones come from the ProcessGroup): pthread locks (threads create their locations concurrently),
// flushing a full event buffer to disk instead of failing, and OTF2's own error messages routed to
// one collwrap line.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <string>

namespace collwrap::tracer {

struct ArchiveIdentity {
  std::string directory;  // the archive directory; the anchor is <directory>/traces.otf2
  std::string program;    // archive description
  std::string machine;    // host of process 0
};

// Local step (no communication). nullptr on failure, with `problem` set.
OTF2_Archive* create_archive(const ArchiveIdentity& identity, std::string& problem);

// Makes OTF2 report errors through collwrap's diagnostics instead of printing its own
// multi-line messages.
void route_otf2_errors() noexcept;

}  // namespace collwrap::tracer
