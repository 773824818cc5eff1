// Collective digests: what the rules and the matcher's counts read of a collective instance's
// members as a whole, so that an analyzer process of a job (analyzer/distributed) need not
// hold the other processes' members of the instance as ghosts.
//
// The rules of the barrier, N×N and one-to-N families read of the members they do not report
// only extremes: the member that joined last (wait_at_barrier, wait_at_nxn), the one that left
// first (barrier_completion, nxn_completion), the root (late_broadcast); the matcher's counts
// read the number of members, whether they agree on the operation and root, whether any moved
// data, and the same latest entry and root entry for the clock condition. Each process digests
// the members it holds (partial_digests), the processes merge the parts (merge_digest), and
// every process then matches its own members of the instance with the digest in place of the
// others (match_trace with digests). A tie goes to the member first in rank-in-communicator
// order, as on the whole trace.
//
// Only communicators whose every instance is a blocking MPI or OpenSHMEM collective of those
// three families are digested; the others' members still travel as ghosts.
#pragma once

#include <cstdint>
#include <vector>

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
  TimeNs joined = 0;  // Enter of the collective (blocking ones only are digested)
  TimeNs end = 0;     // Exit
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

// A job's digests, by (comm, instance), and which communicators they digest.
struct CollectiveDigests {
  std::vector<std::uint8_t> digested_comm;  // CommDigest, by communicator
  std::vector<CollectiveDigest> digests;    // sorted by (comm, instance)

  bool digested(std::uint32_t comm) const {
    return comm < digested_comm.size() && digested_comm[comm] == kDigested;
  }
  // Index into digests, or kNone.
  std::uint32_t find(std::uint32_t comm, std::uint32_t instance) const;
};

// Whether an instance's communicator may be digested: a blocking collective of the barrier,
// N×N or one-to-N family, without UPC sync modes.
bool digestible(const Trace& trace, const Matching& matching, std::uint32_t instance);

// The digest of each instance of `matching` (of a trace that holds only some members of each),
// of the communicators whose instances are all digestible (digested_comm).
CollectiveDigests partial_digests(const Trace& trace, const Matching& matching);

// Adds a part of another process's members to a digest of the same instance.
void merge_digest(CollectiveDigest& into, const CollectiveDigest& part);

// Two processes' parts (from partial_digests or merged before), merged: a communicator is
// digested when neither has an instance of it that is not digestible. Each part's digests are
// in key order, so they are merged in one pass, with room for no more than the result.
CollectiveDigests merge_digests(const CollectiveDigests& a, const CollectiveDigests& b);

}  // namespace collwrap
