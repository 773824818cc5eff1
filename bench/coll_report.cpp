#include "coll_report.h"

namespace collwrap::bench {
namespace {

// Confidence level as a column label: 0.95 → "95", 0.995 → "99.5".
std::string level(double confidence) {
  char text[16];
  std::snprintf(text, sizeof text, "%g", confidence * 100);
  return text;
}

// Only the window method has a window (δ) to report.
bool has_window(const CollRunInfo& info) {
  return info.method == "window";
}

}  // namespace

void print_coll_header(FILE* out, const CollRunInfo& info, const Collective& collective) {
  std::fprintf(out, "\n# collwrap-bench coll: %s, %s method, %d ranks", collective.mpi_name,
               info.method.c_str(), info.ranks);
  if (collective.rooted) std::fprintf(out, ", root %d", info.root);
  std::fprintf(out, ", timer %s, sync %s\n", info.timer.c_str(), info.sync.c_str());
  const std::string ci = "CI" + level(info.confidence);
  std::fprintf(out, "%-10s%18s%8s%9s%8s%6s%12s%9s%12s%12s%12s%14s%14s%12s", "# Size",
               "Avg Latency(us)", "Runs", "Correct", "Failed", "Used", "Mean(us)", "RSE", "SE(us)",
               "Min(us)", "Max(us)", (ci + "-low(us)").c_str(), (ci + "-high(us)").c_str(),
               "Window(us)");
  if (info.per_rank)
    for (int r = 0; r < info.ranks; ++r)
      std::fprintf(out, "%14s", ("Rank" + std::to_string(r) + "(us)").c_str());
  std::fputc('\n', out);
}

void print_coll_row(FILE* out, const CollRunInfo& info, const CollRow& row) {
  const CollStatistics& s = row.measurement.statistics;
  std::fprintf(out, "%-10zu%18.2f%8d%9d%8d%6d%12.2f%9.4f%12.3f%12.2f%12.2f%14.2f%14.2f", row.size,
               s.mean_us, s.runs, s.correct, s.failed, s.used, s.mean_us, s.rse, s.se_us, s.min_us,
               s.max_us, s.ci_low_us, s.ci_high_us);
  if (has_window(info))
    std::fprintf(out, "%12.2f", row.measurement.window_us);
  else
    std::fprintf(out, "%12s", "-");
  if (info.per_rank)
    for (double t : row.measurement.per_rank_us) std::fprintf(out, "%14.2f", t);
  std::fputc('\n', out);
  std::fflush(out);
}

std::string coll_csv(const CollRunInfo& info, const std::vector<CollRow>& rows) {
  std::string csv =
      "operation,method,ranks,root,size,avg_latency_us,runs,correct,failed,used,mean_us,rse,"
      "se_us,min_us,max_us,ci_low_us,ci_high_us,window_us";
  if (info.per_rank)
    for (int r = 0; r < info.ranks; ++r) csv += ",rank" + std::to_string(r) + "_us";
  csv += '\n';
  char line[512];
  for (const CollRow& row : rows) {
    const CollStatistics& s = row.measurement.statistics;
    std::snprintf(line, sizeof line,
                  "%s,%s,%d,%d,%zu,%.3f,%d,%d,%d,%d,%.3f,%.5f,%.4f,%.3f,%.3f,%.3f,%.3f,",
                  row.collective->mpi_name, info.method.c_str(), info.ranks, info.root, row.size,
                  s.mean_us, s.runs, s.correct, s.failed, s.used, s.mean_us, s.rse, s.se_us,
                  s.min_us, s.max_us, s.ci_low_us, s.ci_high_us);
    csv += line;
    if (has_window(info)) {
      std::snprintf(line, sizeof line, "%.3f", row.measurement.window_us);
      csv += line;
    }
    if (info.per_rank)
      for (double t : row.measurement.per_rank_us) {
        std::snprintf(line, sizeof line, ",%.3f", t);
        csv += line;
      }
    csv += '\n';
  }
  return csv;
}

nlohmann::ordered_json coll_json(const CollRunInfo& info, const std::vector<CollRow>& rows) {
  nlohmann::ordered_json j;
  j["subcommand"] = "coll";
  j["method"] = info.method;
  j["ranks"] = info.ranks;
  j["root"] = info.root;
  j["timer"] = info.timer;
  j["sync"] = info.sync;
  j["confidence"] = info.confidence;
  j["results"] = nlohmann::ordered_json::array();
  for (const CollRow& row : rows) {
    const CollStatistics& s = row.measurement.statistics;
    nlohmann::ordered_json r;
    r["operation"] = row.collective->mpi_name;
    r["size"] = row.size;
    r["avg_latency_us"] = s.mean_us;
    r["runs"] = s.runs;
    r["correct"] = s.correct;
    r["failed"] = s.failed;
    r["used"] = s.used;
    r["mean_us"] = s.mean_us;
    r["rse"] = s.rse;
    r["se_us"] = s.se_us;
    r["min_us"] = s.min_us;
    r["max_us"] = s.max_us;
    r["ci_low_us"] = s.ci_low_us;
    r["ci_high_us"] = s.ci_high_us;
    if (has_window(info)) r["window_us"] = row.measurement.window_us;
    if (info.per_rank) r["per_rank_us"] = row.measurement.per_rank_us;
    j["results"].push_back(std::move(r));
  }
  return j;
}

}  // namespace collwrap::bench
