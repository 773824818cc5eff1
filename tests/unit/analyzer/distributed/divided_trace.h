// A trace for the tests of divided analysis, and what each process of a job would hold of it.
#pragma once

#include <cstdint>
#include <vector>

#include "location_shares.h"
#include "partial_trace.h"
#include "trace_model.h"

namespace collwrap {

inline constexpr int kVariedRanks = 4, kVariedThreads = 2;

// Four ranks of two threads each (locations 0…7, rank by rank), with every kind of message,
// collective and transfer the rules that run divided (runs_divided) read, jittered so that each
// of those rules finds instances, and with something for every count of the matching
// (divided_trace.cpp says what).
Trace varied_trace();

// What each location's definitions declare: the weights split_locations divides by.
std::vector<std::uint64_t> events_per_location(const Trace& trace);

// Process `self`'s partial trace, as the exchange would leave it: its own locations copied
// from the whole trace, every other process's ghosts for it packed there and read back.
PartialTrace partial_trace(const Trace& whole, const std::vector<LocationRange>& shares,
                           unsigned self);

}  // namespace collwrap
