// mpirun -np K analysis_in_job_check ARCHIVE [--min-wait-ns N] [--measure]
//
// The processes of the job analyze the archive divided, each its share with the ghosts of the
// others' (analyze_in_job, every rule that runs divided, without clock repair); process 0 then
// analyzes it alone and compares the findings, one by one and field by field, and the
// matching's figures. (The other parts of the result are compared through the analyzer
// command's JSON report by job_analysis_test.py.)
// Exit status 0 when they are equal, 1 when not (the first difference is printed), 2 on a
// usage error.
//
// With --measure nothing is compared: process 0 prints the wall time and every process's peak
// resident size; run alone (without mpirun), the same for the analyzer alone.
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "analysis_in_job.h"
#include "catalog.h"
#include "process_measures.h"

namespace {

using collwrap::testing::peak_mib;
using collwrap::testing::seconds_since;

using collwrap::Finding;

std::string describe(const Finding& f) {
  return f.pattern + " on rank " + std::to_string(f.rank) + "." + std::to_string(f.thread) +
         " at " + f.file + ":" + std::to_string(f.line) + " (" + std::to_string(f.occurrences) +
         " occurrences, " + std::to_string(f.wait_time_s) + " s)";
}

bool same_matching(const collwrap::Summary& a, const collwrap::Summary& b) {
  const collwrap::MatchSummary &x = a.matching, &y = b.matching;
  return x.messages == y.messages && x.collectives == y.collectives &&
         x.unmatched_sends == y.unmatched_sends && x.unmatched_receives == y.unmatched_receives &&
         x.incomplete_collectives == y.incomplete_collectives &&
         x.unmatched_requests == y.unmatched_requests &&
         x.mismatched_collectives == y.mismatched_collectives && x.invalid_ops == y.invalid_ops &&
         a.clock.violations == b.clock.violations;
}

int compare(const collwrap::AnalysisResult& divided, const collwrap::AnalysisResult& alone,
            unsigned processes) {
  const std::vector<Finding>& d = divided.findings;
  const std::vector<Finding>& a = alone.findings;
  for (std::size_t i = 0; i < std::max(d.size(), a.size()); ++i) {
    if (i < d.size() && i < a.size() && d[i] == a[i]) continue;
    std::cout << "FAIL: finding " << i << " differs: divided "
              << (i < d.size() ? describe(d[i]) : "none") << ", alone "
              << (i < a.size() ? describe(a[i]) : "none") << '\n';
    return 1;
  }
  if (divided.summary.instances_below_min_wait != alone.summary.instances_below_min_wait) {
    std::cout << "FAIL: instances below the minimum wait differ\n";
    return 1;
  }
  if (!same_matching(divided.summary, alone.summary)) {
    std::cout << "FAIL: the matching's figures differ: messages "
              << divided.summary.matching.messages << " against " << alone.summary.matching.messages
              << '\n';
    return 1;
  }
  if (a.empty()) {
    std::cout << "FAIL: the archive has no findings to compare\n";
    return 1;
  }
  std::cout << "findings equal: " << a.size() << " findings and " << alone.summary.matching.messages
            << " messages, " << processes << " processes against the analyzer alone\n";
  return 0;
}

collwrap::AnalysisResult analyze_alone(const std::string& archive,
                                       const collwrap::AnalysisSettings& settings) {
  const collwrap::Trace whole = collwrap::read_trace(archive, {.threads = settings.threads});
  return collwrap::analyze_trace(whole, collwrap::match_trace(whole, settings.threads), settings);
}

int measure_alone(const std::string& archive, const collwrap::AnalysisSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const collwrap::AnalysisResult result = analyze_alone(archive, settings);
  std::cout << "alone: " << result.findings.size() << " findings, " << seconds_since(start)
            << " s, peak " << peak_mib() << " MiB\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::unique_ptr<collwrap::MpiJob> job = collwrap::MpiJob::join_if_launched();
  collwrap::AnalysisSettings settings;
  settings.threads = 1;
  settings.causes.enabled = false;
  for (const collwrap::Pattern* p : collwrap::kPatternCatalog)
    if (collwrap::runs_divided(p->reach)) settings.patterns.push_back(p);
  bool measure = false;
  for (int i = 2; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--measure")
      measure = true;
    else if (option == "--min-wait-ns" && i + 1 < argc)
      settings.rules.min_wait = std::strtoll(argv[++i], nullptr, 10);
  }
  if (argc < 2 || (!job && !measure)) {
    std::cerr << "usage: mpirun -np K analysis_in_job_check ARCHIVE [--min-wait-ns N] "
                 "[--measure], K > 1\n";
    return 2;
  }
  const std::string archive = argv[1];
  if (!job) return measure_alone(archive, settings);
  try {
    const auto start = std::chrono::steady_clock::now();
    const std::optional<collwrap::AnalysisResult> divided =
        collwrap::analyze_in_job(*job, archive, settings, false, {}, [](std::string_view) {});
    if (measure) {
      const double wall = seconds_since(start);
      double peak = peak_mib();
      std::vector<double> peaks(job->size());
      MPI_Gather(&peak, 1, MPI_DOUBLE, peaks.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (!job->leads()) return 0;
      std::cout << job->size() << " processes: " << divided->findings.size() << " findings, "
                << wall << " s, peak";
      for (const double p : peaks) std::cout << ' ' << p;
      std::cout << " MiB\n";
      return 0;
    }
    if (!job->leads()) return 0;
    return compare(*divided, analyze_alone(archive, settings), job->size());
  } catch (const std::exception& e) {
    std::cout << "FAIL: process " << job->rank() << ": " << e.what() << '\n';
    return 1;
  }
}
