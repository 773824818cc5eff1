// Messages from the tracer to the user. The tracer never prints on the application's stdout:
// problems become one "collwrap: ..." line on stderr, written with write(2) so the
// application's stdio buffers are never touched.
#pragma once

namespace collwrap::tracer {

// Prints "collwrap: <formatted message>\n" on stderr.
void print_line(const char* format, ...) noexcept __attribute__((format(printf, 1, 2)));

// Like print_line, but only the first call per process prints: the tracer reports one problem
// and then stays quiet (the application keeps running untraced or with a partial trace).
void report_problem_once(const char* format, ...) noexcept __attribute__((format(printf, 1, 2)));

}  // namespace collwrap::tracer
