// Writes the installed analyzer(1): share/man/analyzer.1 with the line `.\" @REPORT_WRITERS@`
// replaced by one OPTIONS entry per report writer, taken from the writer table
// (report/report_writers.cpp), so that a new report format documents itself in one place.
//
// Usage (run by the build): analyzer-man-page TEMPLATE OUTPUT
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "report_writers.h"

namespace {

constexpr std::string_view kMarker = R"(.\" @REPORT_WRITERS@)";

// "--matrix-csv" as roff writes it: "\-\-matrix\-csv".
std::string roff_option(std::string_view option) {
  std::string out;
  for (char c : option) {
    if (c == '-') out += '\\';
    out += c;
  }
  return out;
}

std::string_view trim_newlines(std::string_view text) {
  while (!text.empty() && text.front() == '\n') text.remove_prefix(1);
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  return text;
}

void write_entries(std::ostream& out) {
  for (const collwrap::ReportWriter& writer : collwrap::report_writers()) {
    out << ".TP\n.BR " << roff_option(writer.option) << " \" \\fIFILE\\fR\"\n"
        << trim_newlines(writer.manual) << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: analyzer-man-page TEMPLATE OUTPUT\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::ofstream out(argv[2]);
  if (!in || !out) {
    std::cerr << "analyzer-man-page: cannot read " << argv[1] << " or write " << argv[2] << '\n';
    return 1;
  }
  bool replaced = false;
  for (std::string line; std::getline(in, line);) {
    if (line == kMarker) {
      write_entries(out);
      replaced = true;
    } else {
      out << line << '\n';
    }
  }
  if (!replaced) {
    std::cerr << "analyzer-man-page: " << argv[1] << " has no line '" << kMarker << "'\n";
    return 1;
  }
  return out.flush() ? 0 : 1;
}
