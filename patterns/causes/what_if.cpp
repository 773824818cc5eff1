#include "what_if.h"

#include <algorithm>
#include <charconv>

namespace collwrap {
namespace {

template <typename T>
bool parse_number(std::string_view s, T& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

WhatIfSpec parse_what_if(std::string_view text) {
  WhatIfSpec spec;
  spec.text = std::string(text);
  bool have_segment = false;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument("'" + std::string(item) + "' is not KEY=VALUE");
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "rank") {
      if (value == "all") {
        spec.rank = -1;
      } else if (!parse_number(value, spec.rank) || spec.rank < 0) {
        throw std::invalid_argument("rank must be a world rank or 'all', not '" +
                                    std::string(value) + "'");
      }
    } else if (key == "segment") {
      const std::size_t colon = value.rfind(':');
      if (colon == std::string_view::npos || colon == 0 ||
          !parse_number(value.substr(colon + 1), spec.line) || spec.line == 0)
        throw std::invalid_argument("segment must be FILE:LINE, not '" + std::string(value) + "'");
      spec.file = std::string(value.substr(0, colon));
      have_segment = true;
    } else if (key == "scale") {
      if (!parse_number(value, spec.scale) || !(spec.scale >= 0))
        throw std::invalid_argument("scale must be a number >= 0, not '" + std::string(value) +
                                    "'");
    } else {
      throw std::invalid_argument("unknown key '" + std::string(key) +
                                  "' (use rank, segment and scale)");
    }
  }
  if (!have_segment) throw std::invalid_argument("segment=FILE:LINE is missing");
  return spec;
}

bool site_matches(const CallSite& site, const std::string& file, std::uint32_t line) {
  if (site.line != line) return false;
  if (site.file == file) return true;
  return site.file.size() > file.size() && site.file.ends_with(file) &&
         site.file[site.file.size() - file.size() - 1] == '/';
}

std::uint64_t what_if_changes(const Trace& trace, std::span<const std::uint32_t> loc_first_call,
                              const WhatIfSpec& spec, std::vector<ScaledSegment>& changed,
                              const LocationRange& at) {
  const auto scale = static_cast<float>(spec.scale);
  std::uint64_t hits = 0;
  for (std::size_t loc = at.first; loc < std::min(at.end, trace.locations.size()); ++loc) {
    const Location& l = trace.locations[loc];
    if (spec.rank >= 0 && l.rank != spec.rank) continue;
    for (std::uint32_t i = 0; i < l.call_callsite.size(); ++i) {
      const std::uint32_t site = l.call_callsite[i];
      if (site == kNone || !site_matches(trace.callsites[site], spec.file, spec.line)) continue;
      ++hits;
      if (scale != 1.0f) changed.push_back({loc_first_call[loc] + i, scale});
    }
  }
  return hits;
}

}  // namespace collwrap
