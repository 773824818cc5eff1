// What-if questions: "how much earlier would the run end if this segment were shorter?"
//
//   --what-if 'rank=3,segment=lulesh.cc:2710,scale=0.5'
//
// rank      a world rank, or "all" (the default)
// segment   FILE:LINE of the MPI call that ends the segment (the line the report gives); FILE
//           matches the recorded path exactly or as its trailing path components
// scale     factor on the segment's recorded length, ≥ 0 (default 0: the segment disappears)
//
// The answer replays the trace with those segments scaled and everything else as recorded.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "trace_model.h"

namespace collwrap {

struct WhatIfSpec {
  std::string text;
  std::int32_t rank = -1;  // -1: every rank
  std::string file;
  std::uint32_t line = 0;
  double scale = 0;
};

// Throws std::invalid_argument saying what is wrong.
WhatIfSpec parse_what_if(std::string_view text);

// Whether a recorded call site is the FILE:LINE of a question.
bool site_matches(const CallSite& site, const std::string& file, std::uint32_t line);

}  // namespace collwrap
