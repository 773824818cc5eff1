#include "catalog.h"

#include <algorithm>
#include <array>
#include <string>

namespace collwrap {

std::span<const Pattern* const> pattern_catalog() {
  static constexpr std::array<const Pattern*, 12> kAll = {
      &kLateSender,    &kLateReceiver,      &kWrongOrder, &kEarlyWait,
      &kWaitAtBarrier, &kBarrierCompletion, &kWaitAtNxN,  &kNxNCompletion,
      &kLateBroadcast, &kEarlyReduce,       &kEarlyScan,  &kSendrecvCandidate};
  return kAll;
}

const Pattern* find_pattern(std::string_view id) {
  for (const Pattern* p : pattern_catalog())
    if (p->id == id) return p;
  return nullptr;
}

std::vector<const Pattern*> select_patterns(std::string_view spec) {
  const auto catalog = pattern_catalog();
  if (spec == "all") return {catalog.begin(), catalog.end()};
  std::vector<bool> chosen(catalog.size(), false);
  for (std::size_t start = 0; start <= spec.size();) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string_view id = spec.substr(start, comma - start);
    const auto it =
        std::find_if(catalog.begin(), catalog.end(), [&](const Pattern* p) { return p->id == id; });
    if (it == catalog.end()) throw UnknownPatternError(std::string(id));
    chosen[static_cast<std::size_t>(it - catalog.begin())] = true;
    start = comma + 1;
  }
  std::vector<const Pattern*> selected;
  for (std::size_t i = 0; i < catalog.size(); ++i)
    if (chosen[i]) selected.push_back(catalog[i]);
  return selected;
}

}  // namespace collwrap
