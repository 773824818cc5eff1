// Writing a result file (--json, --csv, --output) of a collwrap-bench subcommand.
#pragma once

#include <string>

namespace collwrap::bench {

// Writes `content` to `path` ("-" is stdout). On failure prints
// "collwrap-bench SUBCOMMAND: cannot write PATH: …" on stderr and returns false.
bool write_output_file(const char* subcommand, const std::string& path, const std::string& content);

}  // namespace collwrap::bench
