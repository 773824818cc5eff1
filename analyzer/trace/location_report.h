// What reading one location's event file found: counts for the trace's totals and the damage,
// in words, for its warnings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collwrap {

struct LocationReport {
  std::uint64_t events = 0;           // OTF2 records read, all kinds
  bool missing = false;               // no event could be read at all
  std::uint64_t unclosed_calls = 0;   // Enter without Leave at the end of the stream
  std::uint64_t orphan_ops = 0;       // MPI records outside any MPI call (not stored)
  std::uint32_t clock_offsets = 0;    // ClockOffset definitions of this location
  double max_offset_stddev = 0;       // in ticks, as recorded
  std::vector<std::string> messages;  // what went wrong, for ReadWarnings (rank/thread named)
};

}  // namespace collwrap
