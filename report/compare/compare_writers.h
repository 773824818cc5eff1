// The files `analyzer compare` can write, in one table like the analyzer's report_writers.h:
// the option that asks for it, its --help text, its name in messages and the writer. The
// compare command line, its --help and the command iterate this table.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "compare_report.h"

namespace collwrap {

struct CompareWriter {
  std::string_view option;       // "--json"; the value is a FILE
  std::string_view help;         // for --help; '\n' starts a new line
  std::string_view name;         // as in "cannot write the comparison page to ..."
  bool standard_output = false;  // FILE "-" means standard output
  void (*write)(const CompareReport& report, std::ostream& out) = nullptr;
};

std::span<const CompareWriter> compare_writers();

const CompareWriter* find_compare_writer(std::string_view option);

// Writes one file ("-": standard output where allowed). Returns an error message or empty.
std::string write_compare_file(const CompareWriter& writer, const CompareReport& report,
                               const std::string& path);

}  // namespace collwrap
