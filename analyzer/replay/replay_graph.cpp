#include "replay_graph.h"

#include <algorithm>

#include "graph_rows.h"
#include "location_shares.h"
#include "parallel_for.h"

namespace collwrap {

ReplayGraph build_replay_graph(const Trace& trace, const Matching& matching, unsigned threads) {
  const WholeTraceFacts facts = whole_trace_facts(trace, matching);
  const std::vector<LocationRange> shares = split_calls(trace, threads);
  std::vector<GraphRows> rows(shares.size());
  parallel_for(shares.size(), threads,
               [&](std::size_t p) { rows[p] = graph_rows(trace, matching, facts, shares[p]); });
  return assemble_replay_graph(facts, std::move(rows));
}

TimeNs ReplayGraph::long_cost(const std::vector<std::pair<std::uint32_t, TimeNs>>& costs,
                              std::uint32_t g) {
  const auto it =
      std::lower_bound(costs.begin(), costs.end(), g,
                       [](const auto& entry, std::uint32_t call) { return entry.first < call; });
  return it != costs.end() && it->first == g ? it->second : 0;
}

}  // namespace collwrap
