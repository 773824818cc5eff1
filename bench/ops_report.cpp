#include "ops_report.h"

#include <cstdio>

namespace collwrap::bench {
namespace {

nlohmann::ordered_json figure_json(const OpsFigure& f) {
  return {{"mean_us", f.mean_us}, {"min_us", f.min_us}, {"max_us", f.max_us}};
}

}  // namespace

std::string ops_table(const OpsRunInfo& info, const std::vector<OpsRow>& rows) {
  char line[256];
  std::string table;
  std::snprintf(line, sizeof line,
                "# collwrap-bench ops: %d ranks, timer %s, repeats %d, iterations %d (short "
                "operations %d)\n",
                info.ranks, info.timer.c_str(), info.repeats, info.iterations,
                info.short_iterations);
  table += line;
  std::snprintf(line, sizeof line,
                "# t = t2 - t1 - DT - DB with DT (one clock read) %.4f us, DB (barrier) %.3f us\n",
                info.clock_read.mean_us, info.barrier.mean_us);
  table += line;
  std::snprintf(line, sizeof line, "%-16s%12s%14s%14s%14s\n", "# Operation", "Size(ints)",
                "Time(us)", "Min(us)", "Max(us)");
  table += line;
  for (const OpsRow& row : rows) {
    const std::string size = row.sized ? std::to_string(row.size) : "-";
    std::snprintf(line, sizeof line, "%-16s%12s%14.3f%14.3f%14.3f\n", row.operation.c_str(),
                  size.c_str(), row.figure.mean_us, row.figure.min_us, row.figure.max_us);
    table += line;
  }
  return table;
}

std::string ops_csv(const std::vector<OpsRow>& rows) {
  std::string csv = "operation,size_ints,time_us,min_us,max_us\n";
  char line[256];
  for (const OpsRow& row : rows) {
    const std::string size = row.sized ? std::to_string(row.size) : "";
    std::snprintf(line, sizeof line, "%s,%s,%.4f,%.4f,%.4f\n", row.operation.c_str(), size.c_str(),
                  row.figure.mean_us, row.figure.min_us, row.figure.max_us);
    csv += line;
  }
  return csv;
}

nlohmann::ordered_json ops_json(const OpsRunInfo& info, const std::vector<OpsRow>& rows) {
  nlohmann::ordered_json j;
  j["subcommand"] = "ops";
  j["ranks"] = info.ranks;
  j["timer"] = info.timer;
  j["repeats"] = info.repeats;
  j["iterations"] = info.iterations;
  j["short_iterations"] = info.short_iterations;
  j["clock_read"] = figure_json(info.clock_read);
  j["barrier"] = figure_json(info.barrier);
  j["results"] = nlohmann::ordered_json::array();
  for (const OpsRow& row : rows) {
    nlohmann::ordered_json r = {{"operation", row.operation}};
    r["size_ints"] = row.sized ? nlohmann::ordered_json(row.size) : nlohmann::ordered_json();
    r.update(figure_json(row.figure));
    j["results"].push_back(std::move(r));
  }
  return j;
}

}  // namespace collwrap::bench
