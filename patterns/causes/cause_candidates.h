// The candidate root causes: from the delay costs of the calls, the compute segments summed per
// location and ending call site, the most costly chosen, and what fixing each would change,
// for the what-if replay that estimates its gain. Each piece reads calls one at a time, so
// that the analyzer alone (root_causes.cpp), which holds every call, and the processes of a
// divided analysis, each holding some, compute the same numbers in the same order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cause_result.h"
#include "compute_segments.h"
#include "delay_costs.h"
#include "what_if.h"

namespace collwrap {

// Segment types grouped by the call site that ends them (whatever call started them: the
// first iteration of a loop starts after another call than the next ones); the total length of
// each group over all locations, and on how many locations it runs.
struct SegmentGroups {
  std::vector<std::uint32_t> of_type;    // segment type → its group
  std::vector<TimeNs> time;              // by group
  std::vector<std::uint32_t> locations;  // by group
  std::size_t groups() const { return time.size(); }
};
// The groups of `types`, numbered in the order of their types, without their sums.
SegmentGroups group_segment_types(const SegmentTypes& types);
// Adds to groups.time the segments of every type (`type_time`, by type).
void add_group_times(SegmentGroups& groups, const std::vector<TimeNs>& type_time);

// The compute segments of one location in one group, with their delay costs.
struct Candidate {
  std::uint32_t loc = 0;      // with across_ranks: the location that spends the most time in it
  std::uint32_t end = 0;      // its group
  std::uint32_t type = 0;     // the first segment type seen, to describe them
  bool across_ranks = false;  // an imbalance: the same code on every location that runs it
  std::uint64_t occurrences = 0;
  TimeNs time = 0;
  double short_term = 0, long_term = 0;  // ns
  double largest_charges = 0;            // ns, DelayCosts::largest_charge summed
  double cost() const { return short_term + long_term; }
};

// The candidates of every location, summed call by call: a location's calls in call order (in
// as many runs as its calls are cut into), the locations in any order. The order of the
// candidates (by location, then by their first call) and of the sums does not depend on how
// the calls were cut.
class CandidateSums {
 public:
  CandidateSums(std::size_t locations, std::size_t groups)
      : by_location_(locations), slot_(groups, kNone) {}

  // Starts or goes on with location `loc`'s calls.
  void at_location(std::uint32_t loc);
  // The next call of the location: its segment's type, length and delay costs.
  void add(std::uint32_t type, std::uint32_t group, TimeNs segment, double short_term,
           double long_term, float largest_charge) {
    std::uint32_t& slot = slot_[group];
    std::vector<Candidate>& mine = by_location_[loc_];
    if (slot == kNone) {
      slot = static_cast<std::uint32_t>(mine.size());
      mine.push_back({.loc = loc_, .end = group, .type = type});
    }
    Candidate& c = mine[slot];
    ++c.occurrences;
    c.time += segment;
    c.short_term += short_term;
    c.long_term += long_term;
    c.largest_charges += largest_charge;
  }

  // Every location's candidates, location by location.
  std::vector<Candidate> all() const;
  // Those of locations [first, end).
  std::vector<Candidate> of_locations(std::size_t first, std::size_t end) const;
  // Takes over the sums another holder of some calls made before (as a divided analysis's
  // processes hand them on), which this one goes on adding to.
  void take_over(const std::vector<Candidate>& earlier);

 private:
  std::vector<std::vector<Candidate>> by_location_;
  std::vector<std::uint32_t> slot_;  // by group: the index of the current location's, or kNone
  std::uint32_t loc_ = kNone;
};

// The candidates with a delay cost, largest first, the first `count` of them.
std::vector<Candidate> most_costly(std::vector<Candidate> all, std::size_t count);

// Code run on several locations whose cost no one location dominates: the slow rank changes
// from one instance to the next (a load that moves, as in adaptive codes), so that cutting
// any one rank's segments would gain little. One cause per group, across ranks.
std::vector<Candidate> imbalances(const std::vector<Candidate>& per_location, std::size_t groups);

// What every cause reports before its gain is estimated.
RootCause describe_cause(const Trace& trace, const SegmentTypes& types, const Candidate& c);

// How a per-location cause's fix changes its segments.
struct LocationFix {
  enum class Kind {
    None,         // nothing to cut to: its gain is not estimated
    OthersMean,   // every segment scaled by `factor`, to the other locations' mean
    LargestWait,  // each segment cut by the largest wait it caused
  } kind = Kind::None;
  float factor = 1;
  // The factor of one of the candidate's segments, of `length` ns, which caused at most a
  // wait of `largest_charge` ns.
  float factor_of(TimeNs length, float largest_charge) const;
};
// The fix of a per-location candidate; sets what the cause says of it (others_mean_time_s,
// target_time_s, gain_basis).
LocationFix plan_fix(const Candidate& c, const SegmentGroups& groups, RootCause& cause);

// The mean length of the k-th instance of a group's segments over the locations that run it
// (the ranks run their loops in step): the target of a balanced fix. Sums of a location's
// instances are added in any order of the locations, and the sums of several holders added up.
struct InstanceMeans {
  std::vector<TimeNs> sum;
  std::vector<std::uint32_t> count;
  void add(std::uint32_t k, TimeNs length) {
    if (k >= sum.size()) sum.resize(k + 1, 0), count.resize(k + 1, 0);
    sum[k] += length;
    ++count[k];
  }
  double mean(std::uint32_t k) const {
    return static_cast<double>(sum[k]) / static_cast<double>(count[k]);
  }
  // The factor that takes the k-th instance, of `length` ns, to the mean.
  float factor(std::uint32_t k, TimeNs length) const {
    return length > 0 ? static_cast<float>(mean(k) / static_cast<double>(length)) : 1.0f;
  }
};
// What an imbalance's balanced fix says of itself, with `target` the sum of the means of the
// location's instances.
void describe_balanced_fix(const Candidate& c, const SegmentGroups& groups, double target,
                           RootCause& cause);

// The wait sites a candidate was charged for, merged over its segment types (and, for an
// imbalance, over the locations), the largest first.
std::vector<CausedWait> caused_waits(const Trace& trace, const SegmentGroups& groups,
                                     const Candidate& c, const std::vector<WaitCharge>& charges);

// A cause's gain, from the end of its replay.
void set_gain(RootCause& cause, TimeNs recorded_end, TimeNs end, TimeNs begin);
// What a what-if question's answer says before its replay: the question.
WhatIfResult what_if_asked(const WhatIfSpec& spec);
// A what-if question's answer, from the end of its replay.
void answer_what_if(WhatIfResult& r, TimeNs recorded_end, TimeNs end, TimeNs begin);
// Largest gain first; causes not estimated last, by cost.
void sort_by_gain(std::vector<RootCause>& causes);

}  // namespace collwrap
