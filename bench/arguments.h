// Command-line options of a collwrap-bench subcommand: "--name value", "--name=value" and
// "--flag". Each subcommand asks for the options it knows, then finish() rejects the rest, so
// that a misspelt option is an error rather than a silently ignored default.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace collwrap::bench {

// What is wrong and what to type instead; the subcommand prints it and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Arguments {
 public:
  // argv[0] is the subcommand's name.
  Arguments(int argc, char** argv);

  bool help() const { return help_; }
  // True when --name was given (without a value).
  bool flag(std::string_view name);
  std::optional<std::string> text(std::string_view name);
  // A number within [min, max]; `fallback` when the option is absent.
  double number(std::string_view name, double fallback, double min, double max);
  long long integer(std::string_view name, long long fallback, long long min, long long max);
  // One of `choices`; `fallback` when absent.
  std::string choice(std::string_view name, std::string_view fallback,
                     const std::vector<std::string_view>& choices);
  // Throws UsageError naming the options no call above asked for.
  void finish() const;

 private:
  struct Option {
    std::string name;  // without the dashes
    std::optional<std::string> value;
    bool used = false;
  };
  Option* find(std::string_view name);

  std::vector<Option> options_;
  bool help_ = false;
};

// Message sizes min, min·factor, min·factor², … up to max (inclusive); a min of 0 is followed by
// 1. Throws UsageError unless 0 ≤ min ≤ max and factor ≥ 2.
std::vector<std::size_t> size_series(std::size_t min, std::size_t max, std::size_t factor);

// Runs `body` and turns a UsageError into the subcommand's message on rank 0 and exit status 2,
// after the usage text. Every rank parses the same command line, so all of them agree.
int run_with_usage(const char* subcommand, const char* usage_text, int (*body)(Arguments&),
                   int argc, char** argv);

}  // namespace collwrap::bench
