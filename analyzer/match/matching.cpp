#include "matching.h"

#include <utility>

#include "collective_matching.h"
#include "p2p_matching.h"
#include "parallel_for.h"
#include "request_linkage.h"

namespace collwrap {

MatchCounts& MatchCounts::operator+=(const MatchCounts& other) {
  messages += other.messages;
  unmatched_sends += other.unmatched_sends;
  unmatched_receives += other.unmatched_receives;
  incomplete_collectives += other.incomplete_collectives;
  unmatched_requests += other.unmatched_requests;
  clock_violations += other.clock_violations;
  invalid_ops += other.invalid_ops;
  mismatched_collectives += other.mismatched_collectives;
  return *this;
}

namespace {

// Messages and collectives, once the requests are linked.
void match_linked(const Trace& trace, Matching& matching, unsigned threads,
                  const LocationRange& counted, const std::vector<std::uint8_t>* digested_comms) {
  MatchCounts collective_counts;
  // The two matchers fill disjoint parts of the matching; with one thread they run in turn.
  // Each spreads its own work over the threads too: a trace may have few messages and many
  // collectives, or the other way round.
  parallel_for(2, threads, [&](std::size_t task) {
    if (task == 0)
      match_messages(trace, matching, matching.counts, threads, counted);
    else
      match_collectives(trace, matching, collective_counts, counted, digested_comms, threads);
  });
  matching.counts += collective_counts;
}

}  // namespace

Matching match_trace(const Trace& trace, unsigned threads, const LocationRange& counted,
                     const std::vector<std::uint8_t>* digested_comms) {
  Matching matching;
  // Both matchers order nonblocking ops by their post.
  link_requests(trace, matching, threads, counted);
  match_linked(trace, matching, threads, counted, digested_comms);
  return matching;
}

Matching match_trace_and_release_request_ids(Trace& trace, unsigned threads,
                                             const LocationRange& counted,
                                             const std::vector<std::uint8_t>* digested_comms,
                                             Matching links, const LocationRange& linked) {
  Matching matching = std::move(links);
  link_requests(trace, matching, threads, counted, linked);
  // The ids' pages are kept for the matching's tables (memory_reuse.h): given back, the tables
  // took them again with a fault a page.
  trace.release_request_ids();
  match_linked(trace, matching, threads, counted, digested_comms);
  return matching;
}

OpRef send_done(const Trace& trace, const Matching& matching, const Message& m) {
  if (trace.locations[m.send.loc].op_kind[m.send.op] == OpKind::Send) return m.send;
  const std::uint32_t done = matching.partner_of(m.send.loc, m.send.op);
  return done == kNone ? OpRef{} : OpRef{m.send.loc, done};
}

OpRef recv_post(const Matching& matching, const Message& m) {
  const std::uint32_t post = matching.partner_of(m.recv.loc, m.recv.op);
  return post == kNone ? m.recv : OpRef{m.recv.loc, post};
}

}  // namespace collwrap
