// A trace for the tests of divided analysis, and what each process of a job would hold of it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "location_shares.h"
#include "matching.h"
#include "partial_trace.h"
#include "rule_options.h"
#include "trace_model.h"
#include "traffic_totals.h"

namespace collwrap {

inline constexpr int kVariedRanks = 4, kVariedThreads = 2;

// Four ranks of two threads each (locations 0…7, rank by rank), with every kind of message,
// collective and transfer the rules that run divided (runs_divided) read, jittered so that each
// of those rules finds instances, and with something for every count of the matching
// (divided_trace.cpp says what).
Trace varied_trace();

// A master-worker program of kVariedRanks ranks of kVariedThreads threads on MPI messages:
// thread 0 of rank 0 hands out work to ranks 1-3 (a large piece to rank 3), their thread 0
// waits for it while rank 0 is busy (overloaded_master), their thread 1 sends the results to
// thread 1 of rank 0, which waits for rank 1's after rank 2's came (slow_workers); the traffic
// to rank 3 is unbalanced (unbalanced_communication). Rank 2 also waits for a second piece
// while rank 0 waits for rank 1. Three rounds.
Trace star_trace();

// Four ranks of one thread: barriers, allreduces, broadcasts and reductions to a root on the
// world, with ties for the latest entry and the first exit, collective clock violations and a
// mismatched instance;
// two communicators of two ranks, one with barriers, one with scans; and two of all ranks, one
// with a UPC collective with sync modes, one with a split-phase barrier (the last three are
// not digested).
Trace digested_collectives_trace();

// The traces the divided analysis is tested on: every rule that runs divided finds instances
// in at least one of them.
std::vector<Trace> divided_test_traces();

// What each location's definitions declare: the weights split_locations divides by.
std::vector<std::uint64_t> events_per_location(const Trace& trace);

// The communicators a job digests (digested_in_job): the least of every process's answer.
std::vector<std::uint8_t> divided_digested_comms(const Trace& whole,
                                                 const std::vector<LocationRange>& shares);
// The digests of the collectives as a job's processes make them (digest_in_job): each digests
// the members its matching has, and the parts are merged in process order.
CollectiveDigests divided_digests(const Trace& whole, const std::vector<LocationRange>& shares);

// Process `self`'s partial trace, as the exchange would leave it: its own locations copied
// from the whole trace, every other process's ghosts for it packed there and read back. With
// `digested_comms`, no ghost of the members of their collectives.
PartialTrace partial_trace(const Trace& whole, const std::vector<LocationRange>& shares,
                           unsigned self,
                           const std::vector<std::uint8_t>* digested_comms = nullptr);

// Every process's partial trace and its matching (counting at the process's own locations),
// with the collectives' digests (as the job analyzes an archive) or, without, their members
// as ghosts (as it does for the clock repair).
struct DividedTrace {
  std::vector<PartialTrace> parts;
  std::vector<Matching> matchings;
  std::shared_ptr<const CollectiveDigests> digests;  // which the matchings read; null without
};
enum class Digests { Made, None };
DividedTrace divide(const Trace& whole, const std::vector<LocationRange>& shares,
                    Digests digests = Digests::Made);

// The traffic totals the processes of a job add up, each from its partial trace and matching at
// its own locations (as analysis_in_job does over MPI).
TrafficTotals divided_totals(const std::vector<PartialTrace>& parts,
                             const std::vector<Matching>& matchings, const RuleOptions& options);

}  // namespace collwrap
