#include "trace_model.h"

#include <algorithm>

namespace collwrap {

std::uint64_t ReceivedBytes::of(std::uint32_t op) const {
  const auto it = std::lower_bound(ops.begin(), ops.end(), op);
  return it != ops.end() && *it == op ? bytes[static_cast<std::size_t>(it - ops.begin())] : 0;
}

void ReceivedBytes::append(std::uint32_t op, std::uint64_t received) {
  if (received == 0) return;
  ops.push_back(op);
  bytes.push_back(received);
}

void Trace::finish_indexes() {
  rank_main_location.assign(world_size > 0 ? static_cast<std::size_t>(world_size) : 0, kNone);
  for (std::uint32_t i = 0; i < locations.size(); ++i) {
    const Location& l = locations[i];
    if (l.thread == 0 && l.rank >= 0 && l.rank < world_size) rank_main_location[l.rank] = i;
  }
}

void Trace::release_request_ids() {
  for (Location& l : locations) std::vector<std::uint64_t>().swap(l.op_request);
}

}  // namespace collwrap
