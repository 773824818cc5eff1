#include "compare_command.h"

#include <iostream>
#include <new>

#include "archive_analysis.h"
#include "catalog.h"
#include "command_line.h"
#include "compare_terminal.h"
#include "compare_writers.h"
#include "finding_matching.h"
#include "run_source.h"
#include "trace_reader.h"

namespace collwrap {
namespace {

constexpr int kExitBadRun = 1;
constexpr int kExitUsage = 2;

int fail(int status, const std::string& message) {
  std::cerr << "analyzer: " << message << '\n';
  return status;
}

void set_output(CompareCommandLine& cl, const CompareWriter& writer, std::string_view value) {
  const std::string path = writer.standard_output && value == "-"
                               ? std::string(value)
                               : output_file(writer.option, value);
  for (auto& [option, given] : cl.outputs)
    if (option == writer.option) {
      given = path;
      return;
    }
  cl.outputs.emplace_back(writer.option, path);
}

std::optional<std::string> output_path(const CompareCommandLine& cl, std::string_view option) {
  for (const auto& [given, path] : cl.outputs)
    if (given == option) return path;
  return std::nullopt;
}

}  // namespace

CompareCommandLine parse_compare_command_line(std::span<const std::string_view> args) {
  CompareCommandLine cl;
  cl.analysis.patterns = select_patterns("all");
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (options_done || !arg.starts_with("-") || arg.size() == 1) {
      cl.runs.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
    } else if (arg == "--help" || arg == "-h") {
      cl.help = true;
      return cl;
    } else if (arg == "--scaling") {
      cl.compare.scaling = true;
    } else if (arg == "--quiet" || arg == "-q") {
      cl.quiet = true;
    } else if (arg == "--no-causes") {
      cl.analysis.causes.enabled = false;
    } else if (arg == "--no-clock-repair") {
      cl.clock_repair = false;
    } else {
      // Options with a value: --name VALUE or --name=VALUE.
      const std::size_t eq = arg.find('=');
      const std::string_view name = arg.substr(0, eq);
      const auto take_value = [&]() {
        if (eq != std::string_view::npos) return arg.substr(eq + 1);
        if (i + 1 >= args.size())
          throw UsageError(std::string(name) +
                           " needs a value; run 'analyzer compare --help' for the options");
        return args[++i];
      };
      if (const CompareWriter* writer = find_compare_writer(name)) {
        set_output(cl, *writer, take_value());
      } else if (name == "--fail-if-worse") {
        try {
          cl.compare.thresholds.push_back(parse_worse_threshold(take_value()));
        } catch (const std::invalid_argument& e) {
          throw UsageError("--fail-if-worse: " + std::string(e.what()));
        }
      } else if (name == "--top") {
        cl.top = static_cast<std::size_t>(parse_count(name, take_value()));
      } else if (name == "--patterns") {
        cl.analysis.patterns = parse_patterns(take_value());
      } else {
        throw UsageError("unknown option '" + std::string(arg) +
                         "' of compare; run 'analyzer compare --help' for the options");
      }
    }
  }
  if (cl.runs.size() < 2)
    throw UsageError(
        "compare needs at least two runs, the base first: analyzer compare BASE NEW, each an "
        "archive, a JSON report (analyzer --json) or DATABASE#RUN_ID (analyzer --sqlite)");
  if (cl.compare.scaling && !cl.compare.thresholds.empty())
    throw UsageError(
        "--fail-if-worse compares a new run with a base run; it does not apply to --scaling");
  return cl;
}

std::string compare_usage_text() {
  std::string text =
      "Usage: analyzer compare BASE NEW [MORE...] [options]\n"
      "Compares runs: each later run against BASE, or with --scaling all runs as a scaling\n"
      "study across rank counts. A run is an archive (directory or traces.otf2, analyzed\n"
      "here), a JSON report (analyzer TRACE --json FILE) or a run of a results database,\n"
      "DATABASE#RUN_ID (analyzer TRACE --sqlite DATABASE).\n"
      "Findings are matched by pattern, rank and call site (file, line, function, MPI call);\n"
      "a line that moved by up to " +
      std::to_string(kLineShiftTolerance) +
      " lines still matches when the function and MPI call agree.\n"
      "\n"
      "Options:\n";
  for (const CompareWriter& w : compare_writers())
    text += help_entry(std::string(w.option) + " FILE", w.help);
  text +=
      "  --fail-if-worse SPEC       exit with status 3 when a new run waits more than BASE by\n"
      "                             more than PERCENT: SPEC is PATTERN:PERCENT (one pattern's\n"
      "                             total) or total:PERCENT (all waiting, none counted twice);\n"
      "                             growth under 1 ms never counts; repeatable\n"
      "  --scaling                  POP scaling metrics of runs of one program at different\n"
      "                             rank counts (speedup, computational scaling, global\n"
      "                             efficiency) instead of the comparison\n"
      "  --top N                    rows per table on the terminal (default: 10)\n"
      "  --patterns all|ID[,ID...]  patterns to look for in archives (default: all)\n"
      "  --no-causes                archives: skip root causes and POP efficiencies\n"
      "  --no-clock-repair          archives: analyze the times as recorded\n"
      "  --quiet, -q                no table on the terminal\n"
      "  --help, -h                 print this help and exit\n"
      "\n"
      "Exit status: 0 compared, 1 a run cannot be analyzed or read, 2 usage error,\n"
      "3 a --fail-if-worse threshold was crossed.\n";
  return text;
}

int run_compare_command(std::span<const std::string_view> args) {
  CompareCommandLine cl;
  try {
    cl = parse_compare_command_line(args);
  } catch (const UsageError& e) {
    return fail(kExitUsage, e.what());
  }
  if (cl.help) {
    std::cout << compare_usage_text();
    return 0;
  }
  std::vector<RunSource> sources;
  try {
    for (const std::string& run : cl.runs) sources.push_back(parse_run_source(run));
  } catch (const RunSourceError& e) {
    return fail(kExitUsage, e.what());
  }
  const ArchiveAnalyzer analyze = [&](const std::string& path) {
    return analyze_archive(path, cl.analysis,
                           {.clock_repair = cl.clock_repair, .keep_trace = false}, nullptr)
        .result;
  };
  std::vector<ComparedRun> runs;
  for (const RunSource& source : sources) {
    try {
      runs.push_back(load_run(source, analyze));
    } catch (const TraceUsageError& e) {
      return fail(kExitUsage, e.what());
    } catch (const TraceReadError& e) {
      return fail(kExitBadRun, std::string(e.what()) + std::string(kIncompleteTraceAdvice));
    } catch (const RunLoadError& e) {
      return fail(kExitBadRun, e.what());
    } catch (const std::bad_alloc&) {
      return fail(kExitBadRun, "out of memory analyzing '" + source.label +
                                   "'; compare its JSON report (analyzer --json) instead");
    }
  }
  const CompareReport report = compare_report(runs, cl.compare);
  for (const CompareWriter& writer : compare_writers())
    if (const std::optional<std::string> path = output_path(cl, writer.option))
      if (std::string error = write_compare_file(writer, report, *path); !error.empty())
        return fail(kExitUsage, error);
  if (!cl.quiet) {
    std::ostream& out = output_path(cl, "--json") == "-" ? std::cerr : std::cout;
    write_compare_terminal(report, cl.top, out);
  }
  return report.worse() ? kExitWorse : 0;
}

}  // namespace collwrap
