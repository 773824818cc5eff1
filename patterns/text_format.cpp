#include "text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

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

namespace {

// "a", "a and b", "a, b and c"; long lists end with "and N more".
std::string format_list(const std::vector<std::string>& items) {
  constexpr std::size_t kShown = 8;
  std::string text;
  const std::size_t shown = std::min(items.size(), kShown);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) text += (i + 1 == shown && shown == items.size()) ? " and " : ", ";
    text += items[i];
  }
  if (shown < items.size()) text += " and " + std::to_string(items.size() - shown) + " more";
  return text;
}

std::vector<std::string> numbers(std::span<const std::int32_t> values) {
  std::vector<std::string> items;
  for (const std::int32_t v : values) items.push_back(std::to_string(v));
  return items;
}

}  // namespace

std::string format_ranks(std::span<const std::int32_t> ranks) {
  if (ranks.empty()) return "no rank";
  return (ranks.size() == 1 ? "rank " : "ranks ") + format_list(numbers(ranks));
}

std::string format_peers(std::span<const std::int32_t> ranks,
                         std::span<const std::vector<std::int32_t>> threads) {
  const bool threaded = std::any_of(threads.begin(), threads.end(), [](const auto& of_rank) {
    return std::any_of(of_rank.begin(), of_rank.end(), [](std::int32_t t) { return t != 0; });
  });
  if (!threaded || threads.size() != ranks.size()) return format_ranks(ranks);
  std::vector<std::string> items = numbers(ranks);
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (!threads[i].empty())
      items[i] += std::string(threads[i].size() == 1 ? " (thread " : " (threads ") +
                  format_list(numbers(threads[i])) + ")";
  return (ranks.size() == 1 ? "rank " : "ranks ") + format_list(items);
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
