// MPIPerf's stopping rule, trimming and summary (Kurnosov, "MPIPerf: a package for evaluating the
// efficiency of MPI communication functions", steps 3.4 and 4), free of MPI.
#pragma once

#include <span>
#include <vector>

namespace collwrap::bench {

// Measurement stops after a stage when either
//   the runs exceed max_runs or the valid runs exceed max_valid, or
//   the relative standard error of the valid runs' mean is at most target_rse with at least
//   min_valid valid runs.
struct StoppingRule {
  int max_runs = 100;
  int max_valid = 30;
  double target_rse = 0.05;
  int min_valid = 10;
};

bool measurement_done(const StoppingRule& rule, int runs, std::span<const double> valid_us);

// Drops the `fraction` smallest and the `fraction` largest values (each rounded down to whole
// values, never emptying the sample) and returns the rest, sorted.
std::vector<double> trim_extremes(std::span<const double> values, double fraction);

// What the table reports for one measurement.
struct CollStatistics {
  int runs = 0;                            // all counted runs (warm-up excluded)
  int correct = 0;                         // valid runs
  int failed = 0;                          // invalid runs
  int used = 0;                            // valid runs left after trimming
  double mean_us = 0, rse = 0, se_us = 0;  // of the trimmed sample
  double min_us = 0, max_us = 0;           // of all valid runs
  double ci_low_us = 0, ci_high_us = 0;    // mean's confidence interval, trimmed sample
};

CollStatistics summarize_runs(int runs, std::span<const double> valid_us, double trim_fraction,
                              double confidence);

}  // namespace collwrap::bench
