#include "trace_model.h"

namespace collwrap {

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
