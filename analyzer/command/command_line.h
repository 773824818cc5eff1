// The analyzer's command line: analyzer TRACE [options]. Parsing only; nothing is read here.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pattern.h"
#include "report_writers.h"
#include "root_causes.h"

namespace collwrap {

// A mistake on the command line. what() says what is wrong and what to type instead; the
// analyzer prints it after "analyzer: " and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CommandLine {
  enum class Action { Analyze, Help, Version, ListPatterns };
  Action action = Action::Analyze;

  std::string trace_path;
  std::vector<const Pattern*> patterns;   // --patterns, default all
  bool list_patterns_json = false;        // --list-patterns=json
  std::optional<std::string> noise_path;  // --noise FILE: a collwrap-bench noise file
  // The report files asked for, by option of report_writers() ("--json" → "report.json").
  std::vector<std::pair<std::string_view, std::string>> reports;
  TimelineOptions timeline;  // --time-window START:END, --timeline-max-events N
  RuleOptions rules;         // --eager-threshold, --min-wait, --sendrecv-window
  std::size_t top = 10;      // --top: findings in the terminal summary
  bool quiet = false;        // --quiet: no terminal summary
  bool timings = false;      // --timings: each phase's time and peak memory on stderr
  bool clock_repair = true;  // --no-clock-repair: analyze the times as read
  CauseOptions causes;       // --what-if SPEC (repeatable), --no-causes
  unsigned threads = 0;      // --threads N; 0: one per core

  // The FILE given to a report option ("--sarif"), if any.
  std::optional<std::string> report_path(std::string_view option) const;
};

// `args` excludes the program name. Throws UsageError.
CommandLine parse_command_line(std::span<const std::string_view> args);

// Option values shared with `analyzer compare` (compare_command.h); each throws UsageError
// naming `option`.
std::uint64_t parse_count(std::string_view option, std::string_view text);
TimeNs parse_seconds(std::string_view option, std::string_view text);
std::vector<const Pattern*> parse_patterns(std::string_view text);
// A file to write: its directory must exist and the name must not be a directory.
std::string output_file(std::string_view option, std::string_view value);

// Lines of a --help text: the option column ("--json FILE") indented by two, then `help`
// ('\n' starts a new line) from the description column on.
std::string help_entry(const std::string& option_column, std::string_view help);

// The --help text: synopsis, options with their defaults, and the pattern ids.
std::string usage_text();

}  // namespace collwrap
