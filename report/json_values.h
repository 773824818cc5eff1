// Values as every JSON file of ours writes them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace collwrap {

// Unknown strings and line numbers are null, not "" or 0.
inline nlohmann::ordered_json text_or_null(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}
inline nlohmann::ordered_json line_or_null(std::uint32_t line) {
  return line == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(line);
}

}  // namespace collwrap
