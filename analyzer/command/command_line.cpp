#include "command_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "catalog.h"
#include "result_units.h"
#include "text_format.h"

namespace collwrap {
namespace {

constexpr std::string_view kTryHelp = "; run 'analyzer --help' for the options";
constexpr std::size_t kHelpColumn = 29;  // where --help's descriptions start

// "1e-05 s = 10.0 µs"
std::string seconds_text(TimeNs ns) {
  const double s = seconds(ns);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", s);
  return std::string(buffer) + " s = " + format_duration(s);
}

std::string pattern_ids() {
  std::string ids = "all";
  for (const Pattern* p : pattern_catalog()) ids += ", " + std::string(p->id);
  return ids;
}

}  // namespace

std::uint64_t parse_count(std::string_view option, std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw UsageError(std::string(option) + " needs a whole number, not '" + std::string(text) +
                     "'" + std::string(kTryHelp));
  return value;
}

TimeNs parse_seconds(std::string_view option, std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  // Limit to what nanosecond TimeNs can hold (about 292 years).
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
      value < 0 || value > 9e9)
    throw UsageError(std::string(option) + " needs a number of seconds >= 0 (e.g. 0.001), not '" +
                     std::string(text) + "'" + std::string(kTryHelp));
  return static_cast<TimeNs>(std::llround(value * 1e9));
}

std::vector<const Pattern*> parse_patterns(std::string_view text) {
  try {
    return select_patterns(text);
  } catch (const UnknownPatternError& e) {
    throw UsageError("unknown pattern id '" + std::string(e.what()) +
                     "' in --patterns; use 'all' or a comma list of: " + pattern_ids());
  }
}

// For the file options: the directory must exist and the name must not be one.
std::string output_file(std::string_view option, std::string_view value) {
  const std::string path(value);
  if (path.empty()) throw UsageError(std::string(option) + " needs a file name");
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent))
    throw UsageError(std::string(option) + ": directory '" + parent.string() +
                     "' does not exist; create it or choose another path");
  if (std::filesystem::is_directory(path))
    throw UsageError(std::string(option) + " names a directory ('" + path + "'); give a file name");
  return path;
}

namespace {

// A report option's FILE: a writable file name, or "-" where the writer allows it. The last
// one given counts.
void set_report(CommandLine& cl, const ReportWriter& writer, std::string_view value) {
  std::string path;
  if (writer.standard_output && value.empty())
    throw UsageError(std::string(writer.option) + " needs a file name, or - for standard output");
  path = writer.standard_output && value == "-" ? std::string(value)
                                                : output_file(writer.option, value);
  for (auto& [option, given] : cl.reports)
    if (option == writer.option) {
      given = path;
      return;
    }
  cl.reports.emplace_back(writer.option, path);
}

// --time-window START:END in seconds since the start of the trace.
void parse_time_window(std::string_view text, TimelineOptions& timeline) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos)
    throw UsageError("--time-window needs START:END in seconds, e.g. 1.5:2.5, not '" +
                     std::string(text) + "'" + std::string(kTryHelp));
  timeline.start = parse_seconds("--time-window START", text.substr(0, colon));
  timeline.end = parse_seconds("--time-window END", text.substr(colon + 1));
  if (timeline.end <= timeline.start)
    throw UsageError("--time-window " + std::string(text) + " ends before it starts" +
                     std::string(kTryHelp));
}

}  // namespace

CommandLine parse_command_line(std::span<const std::string_view> args) {
  CommandLine cl;
  cl.patterns = select_patterns("all");
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (options_done || !arg.starts_with("-") || arg.size() == 1) {
      if (!cl.trace_path.empty())
        throw UsageError("more than one trace given ('" + cl.trace_path + "' and '" +
                         std::string(arg) + "'); analyze one archive at a time");
      cl.trace_path = std::string(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      cl.action = CommandLine::Action::Help;
      return cl;
    }
    if (arg == "--version") {
      cl.action = CommandLine::Action::Version;
      return cl;
    }
    if (arg == "--list-patterns" || arg == "--list-patterns=text" ||
        arg == "--list-patterns=json") {
      cl.action = CommandLine::Action::ListPatterns;
      cl.list_patterns_json = arg.ends_with("=json");
      return cl;
    }
    if (arg == "--timings") {
      cl.timings = true;
      continue;
    }
    if (arg == "--quiet" || arg == "-q") {
      cl.quiet = true;
      continue;
    }
    if (arg == "--no-clock-repair") {
      cl.clock_repair = false;
      continue;
    }
    if (arg == "--no-causes") {
      cl.causes.enabled = false;
      continue;
    }
    // Options with a value: --name VALUE or --name=VALUE.
    const std::size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    const auto take_value = [&]() {
      if (eq != std::string_view::npos) return arg.substr(eq + 1);
      if (i + 1 >= args.size())
        throw UsageError(std::string(name) + " needs a value" + std::string(kTryHelp));
      return args[++i];
    };
    if (name == "--patterns") {
      cl.patterns = parse_patterns(take_value());
    } else if (name == "--noise") {
      const std::string_view value = take_value();
      if (value.empty()) throw UsageError("--noise needs a noise file of collwrap-bench noise");
      cl.noise_path = std::string(value);
    } else if (const ReportWriter* writer = find_report_writer(name)) {
      set_report(cl, *writer, take_value());
    } else if (name == "--time-window") {
      parse_time_window(take_value(), cl.timeline);
    } else if (name == "--timeline-max-events") {
      cl.timeline.max_calls = static_cast<std::size_t>(parse_count(name, take_value()));
    } else if (name == "--eager-threshold") {
      cl.rules.eager_threshold = parse_count(name, take_value());
    } else if (name == "--min-wait") {
      cl.rules.min_wait = parse_seconds(name, take_value());
    } else if (name == "--sendrecv-window") {
      cl.rules.sendrecv_window = parse_seconds(name, take_value());
    } else if (name == "--what-if") {
      try {
        cl.causes.what_ifs.push_back(parse_what_if(take_value()));
      } catch (const std::invalid_argument& e) {
        throw UsageError("--what-if: " + std::string(e.what()) +
                         "; write e.g. --what-if 'rank=3,segment=solver.c:120,scale=0.5'");
      }
    } else if (name == "--threads") {
      const std::uint64_t threads = parse_count(name, take_value());
      if (threads < 1 || threads > 4096)
        throw UsageError("--threads needs a number of threads from 1 to 4096");
      cl.threads = static_cast<unsigned>(threads);
    } else if (name == "--top") {
      cl.top = static_cast<std::size_t>(parse_count(name, take_value()));
    } else {
      throw UsageError("unknown option '" + std::string(arg) + "'" + std::string(kTryHelp));
    }
  }
  if (cl.trace_path.empty())
    throw UsageError(
        "no trace given; name the archive directory (COLLWRAP_TRACE_DIR of the traced run) or its "
        "traces.otf2 file, e.g. analyzer collwrap-app-20240101-120000 --patterns all");
  cl.causes.critical_path_pieces = cl.report_path("--html").has_value();
  return cl;
}

std::optional<std::string> CommandLine::report_path(std::string_view option) const {
  for (const auto& [given, path] : reports)
    if (given == option) return path;
  return std::nullopt;
}

std::string help_entry(const std::string& option_column, std::string_view help) {
  std::string text, column = "  " + option_column;  // then empty: continuation
  for (std::size_t start = 0; start < help.size();) {
    const std::size_t end = std::min(help.find('\n', start), help.size());
    column.resize(kHelpColumn, ' ');
    text += column + std::string(help.substr(start, end - start)) + "\n";
    column.clear();
    start = end + 1;
  }
  return text;
}

std::string usage_text() {
  const RuleOptions defaults;
  std::string text =
      "Usage: analyzer TRACE [options]\n"
      "       analyzer compare BASE NEW [MORE...] [options]   (see analyzer compare --help)\n"
      "Finds MPI wait states in a collwrap trace and the source lines that cause them.\n"
      "TRACE is the archive directory written by libcollwrap.so or its traces.otf2 file.\n"
      "\n"
      "Options:\n"
      "  --patterns all|ID[,ID...]  patterns to look for (default: all)\n"
      "  --noise FILE               estimate how much of the waiting the machine noise in\n"
      "                             FILE (collwrap-bench noise --save FILE) explains\n";
  for (const ReportWriter& w : report_writers())
    text += help_entry(std::string(w.option) + " FILE", w.help);
  text +=
      "  --time-window START:END    timeline (--timeline, --html) only from START to END\n"
      "                             seconds of the trace\n"
      "  --timeline-max-events N    at most N MPI calls in the timeline, the earliest\n"
      "                             (default: " +
      std::to_string(TimelineOptions{}.max_calls) +
      ")\n"
      "  --eager-threshold BYTES    messages above this size are sent in rendezvous mode\n"
      "                             (default: Open MPI's limits, " +
      std::to_string(kSharedMemoryEagerBytes) + " within a node, " +
      std::to_string(kNetworkEagerBytes) +
      " between nodes)\n"
      "  --min-wait SECONDS         ignore instances with less idle time (default: " +
      seconds_text(defaults.min_wait) +
      ")\n"
      "  --sendrecv-window SECONDS  largest gap between a send and a receive that could be one\n"
      "                             MPI_Sendrecv (default: " +
      seconds_text(defaults.sendrecv_window) +
      ")\n"
      "  --top N                    findings listed in the summary (default: 10)\n"
      "  --what-if SPEC             estimate the run time if a compute segment were shorter:\n"
      "                             SPEC is rank=R|all,segment=FILE:LINE,scale=F (FILE:LINE\n"
      "                             of the MPI call that ends the segment, F >= 0 times its\n"
      "                             recorded length; default rank all, scale 0); repeatable\n"
      "  --no-causes                skip the root causes, critical path, POP efficiencies\n"
      "                             and gain estimates (default: computed)\n"
      "  --no-clock-repair          analyze the times as recorded (offsets applied) without\n"
      "                             repairing clock-condition violations (default: repair\n"
      "                             them with the controlled logical clock)\n"
      "  --threads N                cores to use for reading, matching, the rules and the\n"
      "                             root causes; the results do not depend on it (default:\n"
      "                             every core this process may run on)\n"
      "  --timings                  print each phase's wall time and the peak resident size\n"
      "                             at its end on standard error\n"
      "  --quiet, -q                no summary on the terminal, and no progress (shown on\n"
      "                             standard error when it is a terminal and the analysis\n"
      "                             takes more than about 2 s)\n"
      "  --list-patterns[=json]     print every pattern (description, time formula, the\n"
      "                             pattern it is part of, advice) as text or JSON and exit\n"
      "  --version                  print the version and exit\n"
      "  --help, -h                 print this help and exit\n"
      "\n"
      "Patterns:\n";
  for (const Pattern* p : pattern_catalog()) {
    const std::size_t pad = p->id.size() < 20 ? 20 - p->id.size() : 1;
    text += "  " + std::string(p->id) + std::string(pad, ' ') + std::string(p->description) + "\n";
  }
  text +=
      "\n"
      "Exit status: 0 analysis done, 1 the trace cannot be analyzed, 2 usage error\n"
      "(analyzer compare: 3 a --fail-if-worse threshold was crossed).\n";
  return text;
}

}  // namespace collwrap
