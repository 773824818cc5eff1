#include "pattern_list.h"

#include <nlohmann/json.hpp>

#include "catalog.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

Json pattern_json(const Pattern& p) {
  Json included = Json::array();
  for (const std::string_view id : p.may_include)
    if (!id.empty()) included.push_back(id);
  return {{"id", p.id},
          {"parent", p.parent.empty() ? Json(nullptr) : Json(p.parent)},
          {"may_include", included},
          {"waiting", p.waiting},
          {"counts_separately", counts_separately(p)},
          {"description", p.description},
          {"formula", p.formula},
          {"peer_role", p.peer_role},
          {"recommendation", p.recommendation},
          {"divides", runs_divided(p.reach)}};
}

}  // namespace

void write_pattern_list(PatternListFormat format, std::ostream& out) {
  if (format == PatternListFormat::Json) {
    Json list = Json::array();
    for (const Pattern* p : pattern_catalog()) list.push_back(pattern_json(*p));
    out << Json{{"patterns", list}, {"overlap", pattern_overlap_note()}}.dump(2) << '\n';
    return;
  }
  for (const Pattern* p : pattern_catalog()) {
    out << p->id << '\n' << "  " << p->description << '\n';
    out << "  time: " << p->formula << (p->waiting ? "" : " (a possible saving, not waiting)")
        << '\n';
    if (!p->parent.empty()) out << "  part of: " << p->parent << '\n';
    out << "  peers: " << p->peer_role << '\n' << "  advice: " << p->recommendation << '\n';
  }
  out << "Patterns overlap: " << pattern_overlap_note() << ".\n";
}

}  // namespace collwrap
