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
#include "root_causes.h"
#include "timeline_writer.h"

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
  std::optional<std::string> noise_path;  // --noise FILE: a collwrap-bench noise file
  std::optional<std::string> sqlite_path;      // --sqlite FILE: append the run to a database
  std::optional<std::string> sarif_path;       // --sarif FILE
  std::optional<std::string> matrix_csv_path;  // --matrix-csv FILE
  std::optional<std::string> timeline_path;    // --timeline FILE
  std::optional<std::string> html_path;        // --html FILE
  std::optional<std::string> matrix_svg_path;  // --matrix-svg FILE (bytes sent)
  TimelineOptions timeline;  // --time-window START:END, --timeline-max-events N
  RuleOptions rules;                     // --eager-threshold, --min-wait, --sendrecv-window
  std::size_t top = 10;                  // --top: findings in the terminal summary
  bool quiet = false;                    // --quiet: no terminal summary
  bool clock_repair = true;              // --no-clock-repair: analyze the times as read
  CauseOptions causes;                   // --what-if SPEC (repeatable), --no-causes
};

// `args` excludes the program name. Throws UsageError.
CommandLine parse_command_line(std::span<const std::string_view> args);

// The --help text: synopsis, options with their defaults, and the pattern ids.
std::string usage_text();

}  // namespace collwrap
