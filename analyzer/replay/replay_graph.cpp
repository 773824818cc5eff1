#include "replay_graph.h"

#include <algorithm>

#include "graph_rows.h"

namespace collwrap {

ReplayGraph build_replay_graph(const Trace& trace, const Matching& matching) {
  const WholeTraceFacts facts = whole_trace_facts(trace, matching);
  std::vector<GraphRows> rows;
  rows.push_back(graph_rows(trace, matching, facts, {}));
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
