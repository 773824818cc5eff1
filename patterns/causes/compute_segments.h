// Compute segments: the time on a location between the Leave of one MPI call and the Enter of
// the next. A segment's type is the pair of call sites around it (the call that starts it, the
// call that ends it), so that "the same code" can be compared across ranks and iterations;
// root causes are reported per type and location. A call without a recorded call site stands
// for its MPI function instead; the first segment of a location starts at the trace's start.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "location_shares.h"
#include "replay_graph.h"

namespace collwrap {

// One end of a segment: a call site index, or kRegionEnd | region when the site is unknown,
// or kNone for the start of the location.
inline constexpr std::uint32_t kRegionEnd = 0x80000000u;

struct SegmentTypes {
  std::vector<std::uint32_t> type_of_call;   // global call id → type of the segment ending there
  std::vector<std::uint32_t> start;          // type → its starting end
  std::vector<std::uint32_t> finish;         // type → its ending end
  std::vector<std::uint32_t> start_region;   // type → MPI function that starts it, or kNone
  std::vector<std::uint32_t> finish_region;  // type → MPI function that ends it
  std::size_t types() const { return start.size(); }
};

// On `threads` threads (0: every core), the same as on one.
SegmentTypes segment_types(const Trace& trace, const ReplayGraph& graph, unsigned threads = 1);

// The same for the calls of the `at` locations only, numbered globally by `loc_first_call`:
// type_of_call by call from the first of those locations' calls, the types in the order they
// first occur there. A divided analysis's processes each make their own locations' and merge
// them in location order (merge_segment_types), which numbers the types as the whole trace does.
SegmentTypes segment_types(const Trace& trace, std::span<const std::uint32_t> loc_first_call,
                           const LocationRange& at);

// Adds the types of `part` (the next locations' calls) that `into` lacks after its own, in
// their order; returns, by type of `part`, its number in `into`.
std::vector<std::uint32_t> merge_segment_types(SegmentTypes& into, const SegmentTypes& part);

// A segment end as "file:line" (with the MPI function's name when no site was recorded), and
// its MPI function.
struct SegmentEnd {
  std::string file;
  std::uint32_t line = 0;
  std::string function;  // enclosing user function, when known
  std::string mpi_function;
};
SegmentEnd describe_end(const Trace& trace, std::uint32_t end, std::uint32_t region);

std::uint32_t segment_end_of_call(const Location& l, std::uint32_t call);

}  // namespace collwrap
