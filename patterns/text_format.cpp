#include "text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace collwrap {

std::string format_duration(double seconds) {
  struct Unit {
    double scale;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
  if (seconds == 0) return "0 s";
  const double magnitude = std::fabs(seconds);
  const Unit* unit = &kUnits[3];
  for (const Unit& u : kUnits) {
    if (magnitude >= 0.9995 * u.scale) {  // 999.97 ms reads "1.00 s", not "1000 ms"
      unit = &u;
      break;
    }
  }
  const double value = seconds / unit->scale;
  const double abs_value = std::fabs(value);
  const int decimals = unit == &kUnits[3] ? 0 : abs_value >= 100 ? 0 : abs_value >= 10 ? 1 : 2;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, value, unit->name);
  return buffer;
}

std::string format_ranks(std::span<const std::int32_t> ranks) {
  constexpr std::size_t kShown = 8;
  if (ranks.empty()) return "no rank";
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  const std::size_t shown = ranks.size() > kShown ? kShown : ranks.size();
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) text += (i + 1 == shown && shown == ranks.size()) ? " and " : ", ";
    text += std::to_string(ranks[i]);
  }
  if (shown < ranks.size()) text += " and " + std::to_string(ranks.size() - shown) + " more";
  return text;
}

std::string format_place(const std::string& file, std::uint32_t line) {
  if (file.empty()) return "unknown location";
  return line == 0 ? file : file + ":" + std::to_string(line);
}

std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string padded(std::string text, std::size_t width) {
  const std::size_t used = display_width(text);
  if (used < width) text.append(width - used, ' ');
  return text;
}

}  // namespace collwrap
