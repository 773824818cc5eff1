#include "arguments.h"

#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace collwrap::bench {
namespace {

std::string quoted(std::string_view name) {
  std::string q = "'--";
  q.append(name).append("'");
  return q;
}

}  // namespace

Arguments::Arguments(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      help_ = true;
      continue;
    }
    if (arg.size() < 3 || arg.substr(0, 2) != "--")
      throw UsageError("unexpected argument '" + std::string(arg) + "'; options start with --");
    Option o;
    const std::string_view body = arg.substr(2);
    if (const auto eq = body.find('='); eq != std::string_view::npos) {
      o.name = body.substr(0, eq);
      o.value = std::string(body.substr(eq + 1));
    } else {
      o.name = body;
      // A following word that is not an option is this option's value.
      if (i + 1 < argc && std::string_view(argv[i + 1]).substr(0, 2) != "--") o.value = argv[++i];
    }
    if (find(o.name)) throw UsageError(quoted(o.name) + " is given twice; give it once");
    options_.push_back(std::move(o));
  }
}

Arguments::Option* Arguments::find(std::string_view name) {
  for (Option& o : options_)
    if (o.name == name) return &o;
  return nullptr;
}

bool Arguments::flag(std::string_view name) {
  Option* o = find(name);
  if (!o) return false;
  o->used = true;
  if (o->value) throw UsageError(quoted(name) + " takes no value");
  return true;
}

std::optional<std::string> Arguments::text(std::string_view name) {
  Option* o = find(name);
  if (!o) return std::nullopt;
  o->used = true;
  if (!o->value || o->value->empty()) throw UsageError(quoted(name) + " needs a value");
  return o->value;
}

double Arguments::number(std::string_view name, double fallback, double min, double max) {
  const auto value = text(name);
  if (!value) return fallback;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(value->c_str(), &end);
  if (*end || errno || !(x >= min && x <= max))
    throw UsageError(quoted(name) + " takes a number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + *value + "'");
  return x;
}

long long Arguments::integer(std::string_view name, long long fallback, long long min,
                             long long max) {
  const auto value = text(name);
  if (!value) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(value->c_str(), &end, 10);
  if (*end || errno || x < min || x > max)
    throw UsageError(quoted(name) + " takes a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + *value + "'");
  return x;
}

std::string Arguments::choice(std::string_view name, std::string_view fallback,
                              const std::vector<std::string_view>& choices) {
  const auto value = text(name);
  if (!value) return std::string(fallback);
  for (std::string_view c : choices)
    if (*value == c) return *value;
  std::string list;
  for (std::string_view c : choices) {
    if (!list.empty()) list += '|';
    list += c;
  }
  throw UsageError(quoted(name) + " takes one of " + list + ", not '" + *value + "'");
}

void Arguments::finish() const {
  std::string unknown;
  for (const Option& o : options_)
    if (!o.used) {
      if (!unknown.empty()) unknown += ", ";
      unknown += quoted(o.name);
    }
  if (!unknown.empty())
    throw UsageError("unknown option " + unknown + "; --help lists the options");
}

std::vector<std::size_t> size_series(std::size_t min, std::size_t max, std::size_t factor) {
  if (min > max || factor < 2)
    throw UsageError("message sizes need min <= max and a factor of at least 2");
  std::vector<std::size_t> sizes;
  for (std::size_t s = min; s <= max;) {
    sizes.push_back(s);
    if (s == 0) {
      s = 1;
    } else {
      if (s > max / factor) break;
      s *= factor;
    }
  }
  return sizes;
}

int run_with_usage(const char* subcommand, const char* usage_text, int (*body)(Arguments&),
                   int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    Arguments args(argc, argv);
    if (args.help()) {
      if (rank == 0) std::fputs(usage_text, stdout);
      return 0;
    }
    return body(args);
  } catch (const UsageError& e) {
    if (rank == 0) {
      std::fprintf(stderr, "collwrap-bench %s: %s\n", subcommand, e.what());
      std::fputs(usage_text, stderr);
    }
    return 2;
  }
}

}  // namespace collwrap::bench
