// Collective instances as the rules see them: each member's join time and waiting interval,
// and the two wait states every synchronizing collective shares.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "pattern.h"
#include "trace_access.h"

namespace collwrap {

struct CollectiveMember {
  std::uint32_t loc = kNone;
  // The blocking collective, or the MPI_Wait*/MPI_Test* that completed a nonblocking one:
  // where the member can idle, and where an instance is reported.
  std::uint32_t call = kNone;
  std::uint32_t post_call = kNone;  // MPI_Iallreduce … for nonblocking collectives, else kNone
  std::int32_t world_rank = kNoWorldRank;
  std::int32_t thread = 0;
  TimeNs joined = 0;  // Enter of the collective, or of its posting call: data is available
  TimeNs begin = 0;   // Enter of `call`
  TimeNs end = 0;     // Exit of `call`

  Peer peer() const { return {world_rank, thread}; }
};

// Calls visit(instance, members) for every complete instance of the family. Incomplete
// instances (a rank missing from the trace) are skipped: their idle times would be guesses.
void for_each_collective(
    const RuleContext& context, CollFamily family,
    const std::function<void(const CollectiveInstance&, std::span<const CollectiveMember>)>& visit);

// The member that joined last, ignoring `except` (may be null); null when none is left.
const CollectiveMember* last_to_join(std::span<const CollectiveMember> members,
                                     const CollectiveMember* except = nullptr);

// Reports, for each member, the instance of a pattern with the given idle time and peer.
void report_member(const Pattern& pattern, const CollectiveMember& member, TimeNs idle, Peer peer,
                   InstanceSink& sink);

// Wait for the last member to join (wait_at_barrier, wait_at_nxn):
//   idle_i = min(max_j joined_j, Exit_i) − Enter_i,   peer = the last to join.
void report_wait_for_last_member(const RuleContext& context, CollFamily family,
                                 const Pattern& pattern, InstanceSink& sink);

// Completion (barrier_completion, nxn_completion): time after the first member left,
//   idle_i = Exit_i − max(Enter_i, min_j Exit_j),   peer = the first to leave.
void report_completion(const RuleContext& context, CollFamily family, const Pattern& pattern,
                       InstanceSink& sink);

}  // namespace collwrap
