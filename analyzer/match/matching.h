// Matching: which send goes with which receive, which collective calls form one instance,
// and which completion belongs to which nonblocking request. The pattern rules only read
// this and the Trace; they never search event streams themselves.
#pragma once

#include <cstdint>
#include <vector>

#include "collective_digest.h"
#include "location_shares.h"
#include "trace_model.h"

namespace collwrap {

struct OpRef {
  std::uint32_t loc = kNone;
  std::uint32_t op = kNone;
  bool valid() const { return loc != kNone && op != kNone; }
  friend bool operator==(const OpRef&, const OpRef&) = default;
};

// One point-to-point message. Matched per (communicator, sender, receiver, tag) in MPI's
// non-overtaking order: the n-th send with that key goes to the n-th receive (in posting
// order) whose recorded actual source and tag are that key. The ops that completed the send
// and posted the receive follow from Matching::request_partner (send_done, recv_post below):
// there is one Message per message of the trace, so it holds only what cannot be derived.
struct Message {
  OpRef send;  // Send or Isend op (the call holding it started the send)
  OpRef recv;  // Recv or Irecv op (the call holding it completed the receive)
};

// One collective operation instance: the n-th collective on a communicator, across all of
// its members. Members are the CollectiveEnd ops (blocking) or NbcComplete ops (nonblocking,
// whose call is the completing Wait/Test); for nonblocking ones `starts` holds the NbcRequest
// ops in the same order.
struct CollectiveInstance {
  std::uint32_t comm = kNone;
  CollOp op = CollOp::None;
  CollFamily family = CollFamily::Other;  // collective_family(op, role of the calls' regions)
  std::int32_t root = kNoWorldRank;       // world rank, or kNoWorldRank
  bool nonblocking = false;
  std::uint32_t first_member = 0;  // into Matching::members / Matching::starts
  std::uint32_t member_count = 0;
  bool complete = false;  // every member of the communicator took part
  // Into Matching::digests when the other processes' members are digested (collective_digest.h):
  // then the members here are only the ones this process holds.
  std::uint32_t digest = kNone;
};

struct MatchCounts {
  std::uint64_t messages = 0;
  std::uint64_t unmatched_sends = 0;
  std::uint64_t unmatched_receives = 0;
  std::uint64_t incomplete_collectives = 0;
  std::uint64_t unmatched_requests = 0;  // completion without request, or request never completed
  // Clock-condition violations: a message received (Recv/Irecv op) before it was sent
  // (Send/Isend op), or a collective member that left before a member it depends on entered
  // (collective_family; only collectives that move data, and barriers).
  std::uint64_t clock_violations = 0;
  std::uint64_t invalid_ops = 0;  // p2p/collective ops whose peer or communicator is unknown
  std::uint64_t mismatched_collectives = 0;  // instances whose members disagree on op or root

  MatchCounts& operator+=(const MatchCounts& other);
};

struct Matching {
  std::vector<Message> messages;
  std::vector<CollectiveInstance> collectives;
  std::vector<OpRef> members;
  std::vector<OpRef> starts;  // parallel to members; invalid for blocking collectives

  // request_partner[loc][op]: for Isend ↔ IsendComplete, IrecvRequest ↔ Irecv and
  // NbcRequest ↔ NbcComplete, the other op's index in the same location; else kNone.
  // A post whose request was cancelled is paired with its RequestCancelled op instead (and
  // takes no part in message or collective matching). Empty for a location without request
  // records, whose ops all have none (4 bytes per op less for blocking communication): read it
  // with partner_of.
  std::vector<std::vector<std::uint32_t>> request_partner;

  // message_of_op[loc][op]: index into messages for Send/Isend/Recv/Irecv ops, else kNone.
  // Empty for a location without sends or receives.
  std::vector<std::vector<std::uint32_t>> message_of_op;

  MatchCounts counts;

  // The digests of the instances whose members other processes of a job hold (apply_digests),
  // or null.
  const CollectiveDigests* digests = nullptr;

  // The other op of a request pair (request_partner), or kNone.
  std::uint32_t partner_of(std::uint32_t loc, std::uint32_t op) const {
    if (loc >= request_partner.size() || op >= request_partner[loc].size()) return kNone;
    return request_partner[loc][op];
  }
};

// `threads`: how many cores matching may use (0: one per core). The result does not depend on it.
// `counted`: the locations whose counts are taken (an analyzer process of a job counts at the
// locations it holds, so that the counts of all processes add up to the whole trace's):
// unmatched sends, receives and requests and invalid ops where they are; messages and their
// clock violations at the receive; collective instances and their violations at their first
// member (in rank-in-communicator order).
// `digested_comms`: in a job, the communicators whose collectives' other members this process
// does not hold (collective_digest.h): their instances wait for apply_digests.
Matching match_trace(const Trace& trace, unsigned threads = 0, const LocationRange& counted = {},
                     const std::vector<std::uint8_t>* digested_comms = nullptr);

// match_trace for the owner of the trace, who reads no request ids after it: they go as soon
// as the requests are linked (8 bytes per op of each location with a nonblocking call), and
// their pages back to the system, so that they are not held beside the matching's tables.
// `links`: the request pairs an earlier link_requests found of the `linked` locations, which
// are not linked again.
Matching match_trace_and_release_request_ids(
    Trace& trace, unsigned threads = 0, const LocationRange& counted = {},
    const std::vector<std::uint8_t>* digested_comms = nullptr, Matching links = {},
    const LocationRange& linked = {0, 0});

// The op that completed a message's send: the IsendComplete of a nonblocking send (invalid if
// it never completed), the send itself for a blocking one.
OpRef send_done(const Trace& trace, const Matching& matching, const Message& m);

// The op that posted a message's receive: the IrecvRequest of a nonblocking receive (the
// Irecv itself when its request was not recorded), the receive itself for a blocking one.
OpRef recv_post(const Matching& matching, const Message& m);

}  // namespace collwrap
