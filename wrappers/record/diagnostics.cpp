#include "record/diagnostics.h"

#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>

namespace collwrap::tracer {
namespace {

std::atomic<bool> g_problem_reported{false};

void vprint_line(const char* format, va_list args) noexcept {
  char line[512] = "collwrap: ";
  constexpr int kPrefix = 10;
  int n = std::vsnprintf(line + kPrefix, sizeof(line) - kPrefix - 1, format, args);
  if (n < 0) return;
  int length =
      kPrefix + (n < int(sizeof(line)) - kPrefix - 1 ? n : int(sizeof(line)) - kPrefix - 2);
  line[length++] = '\n';
  // A short write to stderr is not worth retrying: the message is advisory.
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, line, std::size_t(length));
}

}  // namespace

void print_line(const char* format, ...) noexcept {
  va_list args;
  va_start(args, format);
  vprint_line(format, args);
  va_end(args);
}

void report_problem_once(const char* format, ...) noexcept {
  if (g_problem_reported.exchange(true)) return;
  va_list args;
  va_start(args, format);
  vprint_line(format, args);
  va_end(args);
}

}  // namespace collwrap::tracer
