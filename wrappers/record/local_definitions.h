// Everything one rank knows about its part of the trace, in a form that can be sent to rank 0
// at finalize (to unify definitions) or written to a sidecar file when the rank cannot take
// part in a collective finalize (an abort, an exit without the paradigm's finalize).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "record/byte_stream.h"
#include "record/recorder.h"

namespace collwrap::tracer {

// One frame of a call site, resolved to source: the call instruction's file and line, and the
// function containing it (its name, linkage name and where it is declared).
struct ResolvedFrame {
  std::string function;       // demangled name; from the symbol table without debug information,
                              // "<object>+0x<offset>" without a symbol, "??" outside any object
  std::string linkage_name;   // mangled name, or = function
  std::string function_file;  // declaration file of the function (object path if unknown)
  std::uint32_t function_line = 0;
  std::string file;        // file of the call; the object path when unresolvable
  std::uint32_t line = 0;  // 0 when unresolvable

  bool operator==(const ResolvedFrame&) const = default;
};

struct LocalCallSite {
  CallSiteRef id = 0;
  std::vector<ResolvedFrame> frames;  // [0] = the traced call's caller, then its callers
};

struct LocalLocation {
  std::uint32_t thread_index = 0;
  std::uint64_t events = 0;
};

// A ClockOffset record: at local time `local_time`, add `offset` ticks to get rank 0's time.
struct ClockOffsetSample {
  Ticks local_time = 0;
  std::int64_t offset = 0;
  // Timer ticks, like the offset (OTF2 gives no unit; readers convert both with the resolution):
  // half the smallest round trip seen while measuring.
  double stddev_ticks = 0;

  bool operator==(const ClockOffsetSample&) const = default;
};

struct LocalDefinitions {
  std::uint32_t world_rank = 0;
  std::uint32_t world_size = 0;
  std::string host;
  std::string program;
  std::string process_label;             // ProcessGroup::process_label(), e.g. "MPI Rank"
  double timer_resolution = 0;           // ticks per second of this rank's timer
  std::int64_t calibration_span_ns = 0;  // length of the interval that resolution was measured over
  Ticks first_time = 0, last_time = 0;   // first and last event timestamps (local ticks)
  Ticks realtime_anchor_ticks = 0;       // timer value at ...
  std::int64_t realtime_anchor_ns = 0;   // ... this CLOCK_REALTIME time
  std::vector<ClockOffsetSample> offsets;  // at init, then at finalize
  std::vector<LocalLocation> locations;
  std::vector<GroupInfo> groups;
  std::vector<WindowInfo> windows;
  std::vector<LocalCallSite> callsites;

  void serialize(ByteWriter& out) const;
  // std::nullopt when the bytes are truncated or not a LocalDefinitions record.
  static std::optional<LocalDefinitions> deserialize(std::span<const std::uint8_t> bytes);
};

// What rank 0 sends back: for each local id, the global id to write in the mapping tables.
struct RankMapping {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> comms;      // GroupRef -> global Comm
  std::vector<std::pair<std::uint32_t, std::uint32_t>> callsites;  // CallSiteRef -> CallingContext
  std::vector<std::pair<std::uint32_t, std::uint32_t>> windows;    // WindowRef -> global RmaWin
  std::vector<std::pair<std::uint32_t, std::uint32_t>> groups;     // GroupRef -> global Group

  void serialize(ByteWriter& out) const;
  static std::optional<RankMapping> deserialize(std::span<const std::uint8_t> bytes);
};

}  // namespace collwrap::tracer
