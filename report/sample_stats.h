// Descriptive statistics of a sample of measurements (times, sizes): the communication matrix
// and every collwrap-bench subcommand summarize their samples with these functions.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace collwrap {

struct SampleSummary {
  std::size_t n = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double median = 0;                   // mean of the two middle values when n is even
  double stddev = 0;                   // sample standard deviation (n − 1); 0 when n < 2
  double population_stddev = 0;        // divides by n: when the sample is everything there is
  double standard_error = 0;           // stddev / √n
  double relative_standard_error = 0;  // standard_error / mean; 0 when the mean is 0
};

// All zero for an empty sample.
SampleSummary summarize(std::span<const double> values);
// The same for values already in ascending order (sort_ascending): for callers that may sort
// their own sample instead of letting summarize copy it.
SampleSummary summarize_sorted(std::span<const double> sorted);

// Sorts ascending, in the order std::sort gives, in time linear in the size: a radix sort
// on the values' bit patterns. The analyzer summarizes samples of millions of transfer and
// compute times, where a comparison sort was a twentieth of the analysis. No NaNs. The sort
// is in place: it needs no memory beyond the values' own.
void sort_ascending(std::vector<double>& values);

// The two-sided quantile of Student's t distribution: P(|T| ≤ t) = confidence, for
// `degrees_of_freedom` ≥ 1 and 0 < confidence < 1. Exact (to 1e-12) up to 300 degrees of
// freedom, Hill's expansion around the normal quantile above.
double student_t_quantile(double confidence, std::size_t degrees_of_freedom);

// The standard normal quantile: P(Z ≤ z) = p, 0 < p < 1 (Acklam's rational approximation,
// relative error < 1.2e-9).
double normal_quantile(double p);

struct ConfidenceInterval {
  double low = 0;
  double high = 0;
};

// The interval for the mean at the given confidence level (e.g. 0.95), from the sample's
// standard error and Student's t with n − 1 degrees of freedom; [mean, mean] when n < 2.
ConfidenceInterval mean_confidence_interval(const SampleSummary& s, double confidence);

}  // namespace collwrap
