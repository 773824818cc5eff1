// mpirun -np K findings_in_job_check ARCHIVE [--min-wait-ns N] [--measure]
//
// The processes of the job find the findings of the rules that read only the partners of a
// location's messages and collectives, each on its share of the archive with the ghosts of the
// others' (find_findings_in_job); process 0 then analyzes the archive alone and compares the
// two, finding by finding and field by field, and the matching's counts. Exit status 0 when
// they are equal, 1 when not (the first difference is printed), 2 on a usage error.
//
// With --measure nothing is compared: process 0 prints the wall time and every process's peak
// resident size; run alone (without mpirun), the same for the analyzer's way of finding them
// on the whole trace.
#include <mpi.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "catalog.h"
#include "findings_in_job.h"

namespace {

using collwrap::Finding;

std::string describe(const Finding& f) {
  return f.pattern + " on rank " + std::to_string(f.rank) + "." + std::to_string(f.thread) +
         " at " + f.file + ":" + std::to_string(f.line) + " (" + std::to_string(f.occurrences) +
         " occurrences, " + std::to_string(f.wait_time_s) + " s)";
}

bool same_counts(const collwrap::MatchCounts& a, const collwrap::MatchCounts& b) {
  return a.messages == b.messages && a.unmatched_sends == b.unmatched_sends &&
         a.unmatched_receives == b.unmatched_receives &&
         a.incomplete_collectives == b.incomplete_collectives &&
         a.unmatched_requests == b.unmatched_requests && a.clock_violations == b.clock_violations &&
         a.invalid_ops == b.invalid_ops && a.mismatched_collectives == b.mismatched_collectives;
}

int compare(const collwrap::FoundAtHeld& divided, const collwrap::Findings& alone,
            const collwrap::MatchCounts& alone_counts, unsigned processes) {
  const std::vector<Finding>& d = divided.findings.findings;
  const std::vector<Finding>& a = alone.findings;
  for (std::size_t i = 0; i < std::max(d.size(), a.size()); ++i) {
    if (i < d.size() && i < a.size() && d[i] == a[i]) continue;
    std::cout << "FAIL: finding " << i << " differs: divided "
              << (i < d.size() ? describe(d[i]) : "none") << ", alone "
              << (i < a.size() ? describe(a[i]) : "none") << '\n';
    return 1;
  }
  if (divided.findings.instances_below_min_wait != alone.instances_below_min_wait) {
    std::cout << "FAIL: instances below the minimum wait differ\n";
    return 1;
  }
  if (!same_counts(divided.counts, alone_counts)) {
    std::cout << "FAIL: the matching's counts differ: messages " << divided.counts.messages
              << " against " << alone_counts.messages << '\n';
    return 1;
  }
  if (a.empty()) {
    std::cout << "FAIL: the archive has no findings to compare\n";
    return 1;
  }
  std::cout << "findings equal: " << a.size() << " findings and " << alone_counts.messages
            << " messages, " << processes << " processes against the analyzer alone\n";
  return 0;
}

// Peak resident size of this process, in MiB.
double peak_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int measure_alone(const std::string& archive, const collwrap::FindingSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const collwrap::Trace whole = collwrap::read_trace(archive, {.threads = 1});
  const collwrap::Matching matching = collwrap::match_trace(whole, 1);
  const collwrap::Findings found = collwrap::find_findings(whole, matching, settings, 1);
  std::cout << "alone: " << found.findings.size() << " findings, " << seconds_since(start)
            << " s, peak " << peak_mib() << " MiB\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::unique_ptr<collwrap::MpiJob> job = collwrap::MpiJob::join_if_launched(&argc, &argv);
  collwrap::FindingSettings settings;
  for (const collwrap::Pattern* p : collwrap::kPatternCatalog)
    if (p->reach == collwrap::RuleReach::Partners) settings.patterns.push_back(p);
  bool measure = false;
  for (int i = 2; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--measure")
      measure = true;
    else if (option == "--min-wait-ns" && i + 1 < argc)
      settings.rules.min_wait = std::strtoll(argv[++i], nullptr, 10);
  }
  if (argc < 2 || (!job && !measure)) {
    std::cerr << "usage: mpirun -np K findings_in_job_check ARCHIVE [--min-wait-ns N] "
                 "[--measure], K > 1\n";
    return 2;
  }
  const std::string archive = argv[1];
  if (!job) return measure_alone(archive, settings);
  try {
    const auto start = std::chrono::steady_clock::now();
    const std::optional<collwrap::FoundAtHeld> divided =
        collwrap::find_findings_in_job(*job, archive, settings, {.threads = 1});
    if (measure) {
      const double wall = seconds_since(start);
      double peak = peak_mib();
      std::vector<double> peaks(job->size());
      MPI_Gather(&peak, 1, MPI_DOUBLE, peaks.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (!job->leads()) return 0;
      std::cout << job->size() << " processes: " << divided->findings.findings.size()
                << " findings, " << wall << " s, peak";
      for (const double p : peaks) std::cout << ' ' << p;
      std::cout << " MiB\n";
      return 0;
    }
    if (!job->leads()) return 0;
    const collwrap::Trace whole = collwrap::read_trace(archive, {.threads = 1});
    const collwrap::Matching matching = collwrap::match_trace(whole, 1);
    return compare(*divided, collwrap::find_findings(whole, matching, settings, 1), matching.counts,
                   job->size());
  } catch (const std::exception& e) {
    std::cout << "FAIL: process " << job->rank() << ": " << e.what() << '\n';
    return 1;
  }
}
