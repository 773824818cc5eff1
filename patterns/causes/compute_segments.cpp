#include "compute_segments.h"

#include <algorithm>

#include "flat_map.h"
#include "location_shares.h"
#include "parallel_for.h"

namespace collwrap {

std::uint32_t segment_end_of_call(const Location& l, std::uint32_t call) {
  const std::uint32_t site = l.call_callsite[call];
  return site != kNone ? site : kRegionEnd | l.call_region[call];
}

namespace {

// The key of a type: the ends that start and finish it.
std::uint64_t type_key(std::uint32_t start, std::uint32_t finish) {
  return (std::uint64_t{start} << 32) | finish;
}

// The types of the `at` locations' calls, numbered in the order they first occur there, each
// call's written to `type_of_call` (from the first of those locations' calls on).
SegmentTypes types_into(const Trace& trace, std::span<const std::uint32_t> loc_first_call,
                        const LocationRange& at, std::span<std::uint32_t> type_of_call) {
  SegmentTypes types;
  const std::size_t first_loc = std::min(at.first, trace.locations.size());
  const std::size_t end_loc = std::min(at.end, trace.locations.size());
  const std::uint32_t first_call = loc_first_call[first_loc];
  FlatMap<std::uint64_t, U64Hash> index(1024);
  // By type, the type that last followed it: a program's calls repeat its loops, so that a
  // segment's type is nearly always the one that followed the type before it last time, which
  // is found without hashing.
  struct Successor {
    std::uint32_t finish = kNone, type = kNone;
  };
  std::vector<Successor> successor;
  for (std::size_t loc = first_loc; loc < end_loc; ++loc) {
    const Location& l = trace.locations[loc];
    std::uint32_t start = kNone, start_region = kNone, before = kNone;
    for (std::uint32_t i = 0; i < l.calls(); ++i) {
      const std::uint32_t finish = segment_end_of_call(l, i);
      std::uint32_t type = kNone;
      if (before != kNone && successor[before].finish == finish) {
        type = successor[before].type;
      } else {
        const std::uint32_t next = static_cast<std::uint32_t>(types.start.size());
        type = index.insert(type_key(start, finish), next);
        if (type == next) {
          types.start.push_back(start);
          types.finish.push_back(finish);
          types.start_region.push_back(start_region);
          types.finish_region.push_back(l.call_region[i]);
          successor.emplace_back();
        }
        if (before != kNone) successor[before] = {finish, type};
      }
      type_of_call[loc_first_call[loc] + i - first_call] = type;
      start = finish;
      start_region = l.call_region[i];
      before = type;
    }
  }
  return types;
}

}  // namespace

SegmentTypes segment_types(const Trace& trace, std::span<const std::uint32_t> loc_first_call,
                           const LocationRange& at) {
  const std::size_t first_loc = std::min(at.first, trace.locations.size());
  const std::size_t end_loc = std::min(at.end, trace.locations.size());
  std::vector<std::uint32_t> type_of_call(loc_first_call[end_loc] - loc_first_call[first_loc]);
  SegmentTypes types = types_into(trace, loc_first_call, at, type_of_call);
  types.type_of_call = std::move(type_of_call);
  return types;
}

// Shares of about equal numbers of calls, typed side by side and merged in location order, as a
// divided analysis's processes do: the types are numbered as on one thread.
SegmentTypes segment_types(const Trace& trace, const ReplayGraph& graph, unsigned threads) {
  const std::vector<LocationRange> shares = split_calls(trace, threads);
  if (shares.size() <= 1) return segment_types(trace, graph.loc_first_call, {});
  const std::span<const std::uint32_t> first = graph.loc_first_call;
  SegmentTypes whole;
  whole.type_of_call.resize(graph.calls());
  const auto calls_of = [&](const LocationRange& share) {
    const std::size_t end = std::min(share.end, trace.locations.size());
    const std::size_t begin = std::min(share.first, end);
    return std::span(whole.type_of_call).subspan(first[begin], first[end] - first[begin]);
  };
  std::vector<SegmentTypes> parts(shares.size());
  parallel_for(shares.size(), threads, [&](std::size_t p) {
    parts[p] = types_into(trace, first, shares[p], calls_of(shares[p]));
  });
  std::vector<std::vector<std::uint32_t>> number(shares.size());
  for (std::size_t p = 0; p < shares.size(); ++p) number[p] = merge_segment_types(whole, parts[p]);
  parallel_for(shares.size(), threads, [&](std::size_t p) {
    for (std::uint32_t& type : calls_of(shares[p])) type = number[p][type];
  });
  return whole;
}

std::vector<std::uint32_t> merge_segment_types(SegmentTypes& into, const SegmentTypes& part) {
  FlatMap<std::uint64_t, U64Hash> index(1024);
  for (std::uint32_t t = 0; t < into.types(); ++t)
    index.insert(type_key(into.start[t], into.finish[t]), t);
  std::vector<std::uint32_t> number(part.types());
  for (std::uint32_t t = 0; t < part.types(); ++t) {
    const auto next = static_cast<std::uint32_t>(into.types());
    number[t] = index.insert(type_key(part.start[t], part.finish[t]), next);
    if (number[t] == next) {
      into.start.push_back(part.start[t]);
      into.finish.push_back(part.finish[t]);
      into.start_region.push_back(part.start_region[t]);
      into.finish_region.push_back(part.finish_region[t]);
    }
  }
  return number;
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
