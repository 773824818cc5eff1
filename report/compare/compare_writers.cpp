#include "compare_writers.h"

#include <array>
#include <fstream>
#include <iostream>

#include "compare_html.h"
#include "compare_json.h"

namespace collwrap {

std::span<const CompareWriter> compare_writers() {
  static constexpr std::array kWriters{
      CompareWriter{.option = "--json",
                    .help = "write the comparison as JSON (- = standard output; the\n"
                            "table then goes to standard error)",
                    .name = "comparison JSON",
                    .standard_output = true,
                    .write = write_compare_json},
      CompareWriter{.option = "--html",
                    .help = "write a self-contained HTML page: the tables with the\n"
                            "base and new values as bars side by side, the scaling plot",
                    .name = "comparison page",
                    .write = write_compare_html},
  };
  return kWriters;
}

const CompareWriter* find_compare_writer(std::string_view option) {
  for (const CompareWriter& w : compare_writers())
    if (w.option == option) return &w;
  return nullptr;
}

std::string write_compare_file(const CompareWriter& writer, const CompareReport& report,
                               const std::string& path) {
  if (writer.standard_output && path == "-") {
    writer.write(report, std::cout);
    std::cout.flush();
    return std::cout ? "" : "cannot write the " + std::string(writer.name) + " to standard output";
  }
  std::ofstream out(path);
  if (out) writer.write(report, out);
  out.close();
  if (!out)
    return "cannot write the " + std::string(writer.name) + " to '" + path +
           "'; check that the directory is writable and the disk not full";
  return {};
}

}  // namespace collwrap
