#include "catalog.h"

#include <algorithm>
#include <array>
#include <string>

namespace collwrap {

std::span<const Pattern* const> pattern_catalog() {
  return kPatternCatalog;
}

bool counts_separately(const Pattern& pattern) {
  return pattern.waiting && pattern.parent.empty() && pattern.may_include[0].empty();
}

std::string pattern_overlap_note() {
  std::string note;
  const auto clause = [&](const std::string& text) { note += (note.empty() ? "" : "; ") + text; };
  for (const Pattern* p : pattern_catalog()) {
    if (!p->parent.empty()) clause(std::string(p->id) + " is part of " + std::string(p->parent));
    if (p->may_include[0].empty()) continue;
    std::string included(p->may_include[0]);
    if (!p->may_include[1].empty()) included += " or " + std::string(p->may_include[1]);
    clause(std::string(p->id) + " can include " + included + " time");
  }
  return note;
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
