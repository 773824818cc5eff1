#include "compute_segments.h"

#include "flat_map.h"

namespace collwrap {

std::uint32_t segment_end_of_call(const Location& l, std::uint32_t call) {
  const std::uint32_t site = l.call_callsite[call];
  return site != kNone ? site : kRegionEnd | l.call_region[call];
}

SegmentTypes segment_types(const Trace& trace, const ReplayGraph& graph) {
  SegmentTypes types;
  types.type_of_call.resize(graph.calls());
  FlatMap<std::uint64_t, U64Hash> index(1024);
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    std::uint32_t start = kNone, start_region = kNone;
    for (std::uint32_t i = 0; i < l.calls(); ++i) {
      const std::uint32_t finish = segment_end_of_call(l, i);
      const std::uint64_t key = (std::uint64_t{start} << 32) | finish;
      const std::uint32_t next = static_cast<std::uint32_t>(types.start.size());
      const std::uint32_t type = index.insert(key, next);
      if (type == next) {
        types.start.push_back(start);
        types.finish.push_back(finish);
        types.start_region.push_back(start_region);
        types.finish_region.push_back(l.call_region[i]);
      }
      types.type_of_call[graph.global(loc, i)] = type;
      start = finish;
      start_region = l.call_region[i];
    }
  }
  return types;
}

SegmentEnd describe_end(const Trace& trace, std::uint32_t end, std::uint32_t region) {
  SegmentEnd e;
  if (end == kNone) {
    e.mpi_function = "start";
    return e;
  }
  if (end & kRegionEnd) {
    region = end & ~kRegionEnd;
  } else {
    const CallSite& site = trace.callsites[end];
    e.file = site.file;
    e.line = site.line;
    e.function = site.function;
  }
  if (region < trace.regions.size()) e.mpi_function = trace.regions[region].name;
  return e;
}

}  // namespace collwrap
