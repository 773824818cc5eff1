// The analyzer's command line: analyzer TRACE [options]. Parsing only; nothing is read here.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pattern.h"

namespace collwrap {

// A mistake on the command line. what() says what is wrong and what to type instead; the
// analyzer prints it after "analyzer: " and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CommandLine {
  enum class Action { Analyze, Help, Version };
  Action action = Action::Analyze;

  std::string trace_path;
  std::vector<const Pattern*> patterns;  // --patterns, default all
  std::optional<std::string> json_path;  // --json FILE, "-" = standard output
  RuleOptions rules;                     // --eager-threshold, --min-wait, --sendrecv-window
  std::size_t top = 10;                  // --top: findings in the terminal summary
  bool quiet = false;                    // --quiet: no terminal summary
};

// `args` excludes the program name. Throws UsageError.
CommandLine parse_command_line(std::span<const std::string_view> args);

// The --help text: synopsis, options with their defaults, and the pattern ids.
std::string usage_text();

}  // namespace collwrap
