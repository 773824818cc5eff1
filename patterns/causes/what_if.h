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

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "location_shares.h"
#include "replay.h"
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

// The segments a question changes among the calls of the `at` locations (numbered globally by
// `loc_first_call`), in call order, appended to `changed`; returns how many. Reads only the
// calls' call sites (call_callsite), which is all a divided analysis keeps of them by then.
std::uint64_t what_if_changes(const Trace& trace, std::span<const std::uint32_t> loc_first_call,
                              const WhatIfSpec& spec, std::vector<ScaledSegment>& changed,
                              const LocationRange& at = {});

}  // namespace collwrap
