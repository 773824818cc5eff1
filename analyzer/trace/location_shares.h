// How analyzer processes that share one archive divide its locations: contiguous ranges of
// Trace::locations (sorted by rank, then thread), balanced by the events each location's
// definitions declare, so that every process reads and holds about the same number of events.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace collwrap {

// A contiguous share of the archive's locations: indexes into Trace::locations.
struct LocationRange {
  std::size_t first = 0;
  std::size_t end = std::numeric_limits<std::size_t>::max();
  bool contains(std::size_t location) const { return location >= first && location < end; }
  std::size_t size() const { return end > first ? end - first : 0; }
  friend bool operator==(const LocationRange&, const LocationRange&) = default;
};

// `processes` ranges that cover the locations in order. A location that declares no events
// counts as one. Every range holds at least one location while there are enough; with more
// processes than locations, each location is a range of its own and the last ranges are empty.
std::vector<LocationRange> split_locations(const std::vector<std::uint64_t>& declared_events,
                                           unsigned processes);

struct Trace;
// Shares of a trace's locations with about equal numbers of calls, one per thread of
// `threads` (0: every core) and at most one per location: what work on calls, location by
// location, divides among threads.
std::vector<LocationRange> split_calls(const Trace& trace, unsigned threads);

}  // namespace collwrap
