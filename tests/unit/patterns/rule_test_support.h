// Runs one rule over a TraceBuilder trace and keeps what it reported, for assertions.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "catalog.h"
#include "matching.h"
#include "trace_builder.h"

namespace collwrap::testing {

// A reported instance, copied out of the sink (Instance::peers is only valid during add()).
struct Found {
  std::string pattern;
  std::int32_t rank;
  std::int32_t thread;
  std::uint32_t call;
  TimeNs idle;
  std::vector<std::int32_t> peers;         // world ranks, as the rule reported them
  std::vector<std::int32_t> peer_threads;  // parallel to peers, kUnknownThread when unknown
  InstanceDetail detail;
};

class CollectingSink : public InstanceSink {
 public:
  explicit CollectingSink(const Trace& trace) : trace_(trace) {}
  void add(const Instance& i) override {
    const Location& l = trace_.locations[i.loc];
    Found& f = found.emplace_back(
        Found{std::string(i.pattern->id), l.rank, l.thread, i.call, i.idle, {}, {}, i.detail});
    for (const Peer& p : i.peers) {
      f.peers.push_back(p.rank);
      f.peer_threads.push_back(p.thread);
    }
  }
  std::vector<Found> found;

 private:
  const Trace& trace_;
};

// Matches the trace and runs the rule alone, without the --min-wait filter. Instances come
// sorted by (rank, thread, call), whatever order the rule found them in.
inline std::vector<Found> find(const Pattern& pattern, const Trace& trace,
                               const RuleOptions& options = {}) {
  const Matching matching = match_trace(trace);
  CollectingSink sink(trace);
  pattern.find({trace, matching, options}, sink);
  std::sort(sink.found.begin(), sink.found.end(), [](const Found& a, const Found& b) {
    return std::tie(a.rank, a.thread, a.call) < std::tie(b.rank, b.thread, b.call);
  });
  return sink.found;
}

// The instances reported on one rank.
inline std::vector<Found> on_rank(const std::vector<Found>& found, std::int32_t rank) {
  std::vector<Found> out;
  for (const Found& f : found)
    if (f.rank == rank) out.push_back(f);
  return out;
}

}  // namespace collwrap::testing
