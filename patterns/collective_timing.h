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
  // MPI_Iallreduce … for nonblocking collectives, upc_notify for the upc_wait of a split-phase
  // barrier, else kNone.
  std::uint32_t post_call = kNone;
  std::int32_t world_rank = kNoWorldRank;
  std::int32_t thread = 0;
  TimeNs joined = 0;  // Enter of the collective, or of its posting call: data is available
  TimeNs begin = 0;   // Enter of `call`
  TimeNs end = 0;     // Exit of `call`

  std::int32_t upc_sync = 0;  // a UPC collective's UPC_IN_*/UPC_OUT_* modes (upc_entry_sync)

  Peer peer() const { return {world_rank, thread}; }
};

// The upc_notify that started the split-phase barrier a upc_wait completes: the thread's last
// upc_notify before it, or kNone (no upc_wait, or another upc_wait came first). A call without
// records of its own: the member's join.
std::uint32_t split_phase_notify(const Trace& trace, std::uint32_t loc, std::uint32_t wait);

// Whether a member waits on entry for the members whose data it needs, as its family says
// (late_broadcast, early_reduce, early_scan, wait_at_nxn): MPI and OpenSHMEM collectives, and
// UPC collectives with UPC_IN_MYSYNC. With UPC_IN_ALLSYNC the wait is upc_sync_on_entry's;
// with UPC_IN_NOSYNC the program guaranteed its data ready, so there is no entry wait to blame.
bool waits_for_sources_on_entry(std::span<const CollectiveMember> members);

// Calls visit(instance, members) for every complete instance of the family. Incomplete
// instances (a rank missing from the trace) are skipped: their idle times would be guesses.
void for_each_collective(
    const RuleContext& context, CollFamily family,
    const std::function<void(const CollectiveInstance&, std::span<const CollectiveMember>)>& visit);

// for_each_collective over the UPC relocalization collectives (upc_all_broadcast … prefix_reduce):
// the instances whose members carry sync modes, in every family they are recorded in.
void for_each_upc_collective(
    const RuleContext& context,
    const std::function<void(const CollectiveInstance&, std::span<const CollectiveMember>)>& visit);

// The instance's root among its members, or null.
const CollectiveMember* root_member(const CollectiveInstance& instance,
                                    std::span<const CollectiveMember> members);

// The member that joined last, ignoring `except` (may be null); null when none is left.
const CollectiveMember* last_to_join(std::span<const CollectiveMember> members,
                                     const CollectiveMember* except = nullptr);

// Reports, for each member, the instance of a pattern with the given idle time and peer.
void report_member(const Pattern& pattern, const CollectiveMember& member, TimeNs idle, Peer peer,
                   InstanceSink& sink);

// Reports each member's wait for the last member to join, with that member as peer:
//   idle_i = min(max_j joined_j, Exit_i) − Enter_i.
void report_wait_for_last(const Pattern& pattern, std::span<const CollectiveMember> members,
                          InstanceSink& sink);

// Wait for the last member to join (wait_at_barrier, wait_at_nxn):
//   idle_i = min(max_j joined_j, Exit_i) − Enter_i,   peer = the last to join.
void report_wait_for_last_member(const RuleContext& context, CollFamily family,
                                 const Pattern& pattern, InstanceSink& sink);

// Reports each non-root member's wait for the root to join, with the root as peer (nothing
// when the root is not among the members):
//   idle_i = min(joined_root, Exit_i) − Enter_i.
void report_wait_for_root(const Pattern& pattern, const CollectiveInstance& instance,
                          std::span<const CollectiveMember> members, InstanceSink& sink);

// Reports each member's time after the first member left, with that member as peer:
//   idle_i = Exit_i − max(Enter_i, min_j Exit_j).
void report_after_first_exit(const Pattern& pattern, std::span<const CollectiveMember> members,
                             InstanceSink& sink);

// Completion (barrier_completion, nxn_completion): time after the first member left,
//   idle_i = Exit_i − max(Enter_i, min_j Exit_j),   peer = the first to leave.
void report_completion(const RuleContext& context, CollFamily family, const Pattern& pattern,
                       InstanceSink& sink);

}  // namespace collwrap
