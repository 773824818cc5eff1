// Collective digests: what the rules and the matcher's counts read of a collective instance's
// members as a whole, so that an analyzer process of a job (analyzer/distributed) need not
// hold the other processes' members of the instance as ghosts.
//
// The rules of the barrier, N×N, one-to-N and N-to-one families read of the members they do
// not report only extremes: the member that joined last (wait_at_barrier, wait_at_nxn), the one
// that left first (barrier_completion, nxn_completion), the root (late_broadcast; early_reduce,
// whose root waits only when another member joined last); the matcher's counts
// read the number of members, whether they agree on the operation and root, whether any moved
// data, and the same latest entry and root entry for the clock condition. Each process digests
// the members it holds (partial_digests), the processes merge the parts (merge_digests), and
// every process then takes the digest in place of the others' members (apply_digests). A tie
// goes to the member first in rank-in-communicator order, as on the whole trace.
//
// Only communicators whose every instance is a blocking MPI or OpenSHMEM collective of those
// four families are digested; the others' members still travel as ghosts.
#pragma once

#include <cstdint>
#include <vector>

#include "location_shares.h"
#include "trace_model.h"

namespace collwrap {

struct Matching;

// One member of an instance, as the rules see it (CollectiveMember), with its rank in the
// communicator; position kNone when the digest has none.
struct DigestMember {
  std::uint32_t position = kNone;
  std::uint32_t loc = kNone;
  std::int32_t rank = kNoWorldRank;
  std::int32_t thread = 0;
  TimeNs joined = 0;           // Enter of the collective (blocking ones only are digested)
  TimeNs end = 0;              // Exit
  std::uint32_t call = kNone;  // its call, on its location (the replay graph's gates read it)
  bool present() const { return position != kNone; }
};

struct CollectiveDigest {
  std::uint32_t comm = kNone;
  std::uint32_t instance = 0;  // the communicator's n-th collective
  std::uint32_t members = 0;
  CollOp op = CollOp::None;  // of the first member, as the instance says (CollectiveInstance)
  CollFamily family = CollFamily::Other;
  std::int32_t root = kNoWorldRank;
  bool mismatched = false;  // some member disagrees with the first on operation or root
  bool moves_data = false;  // some member sent or received data
  DigestMember first;       // lowest rank in the communicator: where the instance is counted
  DigestMember last_joiner;
  DigestMember first_to_leave;
  DigestMember root_member;
};

// What the digests say of a communicator: a process without an instance of it leaves the
// decision to the others.
enum CommDigest : std::uint8_t { kNotDigested = 0, kDigested = 1, kNoInstance = 2 };

// Whether the job digests `comm`, by what it answered of each (CommDigest); none without one.
inline bool digested(const std::vector<std::uint8_t>* digested_comm, std::uint32_t comm) {
  return digested_comm && comm < digested_comm->size() && (*digested_comm)[comm] == kDigested;
}

// A job's digests, by (comm, instance), and which communicators they digest.
struct CollectiveDigests {
  std::vector<std::uint8_t> digested_comm;  // CommDigest, by communicator
  std::vector<CollectiveDigest> digests;    // sorted by (comm, instance)

  bool digested(std::uint32_t comm) const { return collwrap::digested(&digested_comm, comm); }
  // Index into digests, or kNone.
  std::uint32_t find(std::uint32_t comm, std::uint32_t instance) const;
};

// By communicator (CommDigest), whether the collectives of the `at` locations may all be
// digested: blocking collectives of the barrier, N×N, one-to-N or N-to-one family, without UPC sync
// modes, whose members join at their Enter, called by each rank's main thread. Each process of a
// job asks of its own locations; the least answer of all (kNotDigested < kDigested < kNoInstance)
// is the job's.
std::vector<std::uint8_t> digestible_communicators(const Trace& trace,
                                                   const LocationRange& at = {});

// The digest of each instance of `matching` on a communicator that `digested_comm` digests,
// from the members `matching` has (a process's own); digested_comm is copied into the result.
CollectiveDigests partial_digests(const Trace& trace, const Matching& matching,
                                  const std::vector<std::uint8_t>& digested_comm);

// Gives each instance of `matching` on a digested communicator, which match_trace left without
// its figures, what its digest says (complete, its operation, family and root, and the digest),
// and counts at the `counted` locations what the matcher counts of the others: incomplete and
// mismatched instances where the first member is, and each member's clock violation where it
// is, against the digest's latest entry (or the root's entry, for one-to-N). `digests` must outlive
// `matching`.
void apply_digests(const Trace& trace, Matching& matching, const CollectiveDigests& digests,
                   const LocationRange& counted = {});

// Adds a part of another process's members to a digest of the same instance.
void merge_digest(CollectiveDigest& into, const CollectiveDigest& part);

// Two processes' parts (from partial_digests or merged before), merged: a communicator is
// digested when neither has an instance of it that is not digestible. Each part's digests are
// in key order, so they are merged in one pass, with room for no more than the result.
CollectiveDigests merge_digests(const CollectiveDigests& a, const CollectiveDigests& b);

}  // namespace collwrap
