#include "rma_epochs.h"

#include <map>
#include <tuple>

namespace collwrap {
namespace {

// The RmaGroupSync op of a call, or kNone.
std::uint32_t group_sync_of(const Trace& trace, std::uint32_t loc, std::uint32_t call) {
  const Location& l = trace.locations[loc];
  for (const std::uint32_t op : ops_of_call(trace, loc, call))
    if (l.op_kind[op] == OpKind::RmaGroupSync) return op;
  return kNone;
}

// Opens an epoch at `open_class` and closes it at the next `close_class` call on the same window.
void collect(const Trace& trace, RegionClass open_class, RegionClass close_class,
             std::vector<RmaEpoch>& out) {
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    std::map<std::uint32_t, RmaEpoch> open;  // by window
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      const RegionClass cls = trace.regions[l.call_region[call]].cls;
      if (cls != open_class && cls != close_class) continue;
      const std::uint32_t op = group_sync_of(trace, loc, call);
      if (op == kNone) continue;
      const auto window = static_cast<std::uint32_t>(l.op_tag[op]);
      if (cls == open_class) {
        RmaEpoch e{loc, call, kNone, window, {}, {}};
        if (l.op_comm[op] != kNone) e.group = trace.comms[l.op_comm[op]].world_ranks;
        open[window] = std::move(e);
      } else if (const auto it = open.find(window); it != open.end()) {
        it->second.close = call;
        it->second.partners.assign(it->second.group.size(), kNone);
        out.push_back(std::move(it->second));
        open.erase(it);
      }
    }
  }
}

}  // namespace

RmaEpochs rma_epochs(const Trace& trace) {
  RmaEpochs epochs;
  collect(trace, RegionClass::RmaStart, RegionClass::RmaComplete, epochs.access);
  collect(trace, RegionClass::RmaPost, RegionClass::RmaWait, epochs.exposure);
  // (window, origin, target) → the epochs on each side in time order, as (epoch, member).
  using Pair = std::tuple<std::uint32_t, std::int32_t, std::int32_t>;
  using Slot = std::pair<std::uint32_t, std::uint32_t>;
  std::map<Pair, std::vector<Slot>> accesses, exposures;
  for (std::uint32_t e = 0; e < epochs.access.size(); ++e) {
    const RmaEpoch& a = epochs.access[e];
    for (std::uint32_t i = 0; i < a.group.size(); ++i)
      accesses[{a.window, rank_of(trace, a.loc), a.group[i]}].push_back({e, i});
  }
  for (std::uint32_t e = 0; e < epochs.exposure.size(); ++e) {
    const RmaEpoch& x = epochs.exposure[e];
    for (std::uint32_t i = 0; i < x.group.size(); ++i)
      exposures[{x.window, x.group[i], rank_of(trace, x.loc)}].push_back({e, i});
  }
  // Epochs were collected location by location; order each side by time of the opening call.
  const auto by_time = [&](const std::vector<RmaEpoch>& side) {
    return [&](const Slot& a, const Slot& b) {
      const RmaEpoch &x = side[a.first], &y = side[b.first];
      return trace.locations[x.loc].call_enter[x.open] < trace.locations[y.loc].call_enter[y.open];
    };
  };
  for (auto& [pair, list] : accesses) {
    const auto other = exposures.find(pair);
    if (other == exposures.end()) continue;
    std::stable_sort(list.begin(), list.end(), by_time(epochs.access));
    std::stable_sort(other->second.begin(), other->second.end(), by_time(epochs.exposure));
    for (std::size_t k = 0; k < std::min(list.size(), other->second.size()); ++k) {
      const auto [a, i] = list[k];
      const auto [x, j] = other->second[k];
      epochs.access[a].partners[i] = x;
      epochs.exposure[x].partners[j] = a;
    }
  }
  return epochs;
}

}  // namespace collwrap
