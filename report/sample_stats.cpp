#include "sample_stats.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <utility>
#include <vector>

namespace collwrap {
namespace {

constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;

// A double's bit pattern turned into an unsigned key of the same order: negative values have
// all bits flipped (larger magnitude, smaller value), the others only the sign bit.
std::uint64_t order_key(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return (bits & kSignBit) ? ~bits : bits | kSignBit;
}

double from_order_key(std::uint64_t key) {
  return std::bit_cast<double>((key & kSignBit) ? key & ~kSignBit : ~key);
}

std::uint64_t load_key(const double* slot) {
  std::uint64_t key;
  std::memcpy(&key, slot, sizeof key);
  return key;
}

void store_key(double* slot, std::uint64_t key) {
  std::memcpy(slot, &key, sizeof key);
}

// Sorts the keys held in [first, last), which differ in bit `top` and agree on every bit above
// it: an in-place most-significant-digit radix sort on 8-bit digits (McIlroy, Bostic and
// McIlroy, "Engineering radix sort", the American flag sort), so that sorting needs no memory
// beyond the values'. Each pass moves every key into its bucket by cycles of swaps, then sorts
// each bucket from the highest bit in which its keys differ: a bucket of equal keys (samples
// repeat a few lengths many times) needs nothing more. Small buckets take a comparison sort.
void sort_keys(double* first, double* last, int top) {
  constexpr std::size_t kComparisonBelow = 64;
  if (static_cast<std::size_t>(last - first) < kComparisonBelow) {
    std::sort(first, last,
              [](const double& a, const double& b) { return load_key(&a) < load_key(&b); });
    return;
  }
  const int shift = std::max(top - 7, 0);
  const auto digit_of = [shift](std::uint64_t key) { return (key >> shift) & 0xFF; };
  // Bucket d spans [end[d], end[d + 1]); next[d] is its first slot not yet holding a key of d.
  // all_ones and any_ones: the AND and the OR of its keys, whose difference shows where they
  // differ.
  std::array<std::size_t, 257> end{};
  std::array<std::size_t, 256> next{};
  std::array<std::uint64_t, 256> all_ones, any_ones{};
  all_ones.fill(~std::uint64_t{0});
  for (const double* p = first; p != last; ++p) {
    const std::uint64_t key = load_key(p);
    const std::size_t d = digit_of(key);
    ++end[d + 1];
    all_ones[d] &= key;
    any_ones[d] |= key;
  }
  for (std::size_t d = 0; d < 256; ++d) {
    end[d + 1] += end[d];
    next[d] = end[d];
  }
  for (std::size_t d = 0; d < 256; ++d) {
    while (next[d] < end[d + 1]) {
      std::uint64_t key = load_key(first + next[d]);
      // Carry the key to its bucket, taking the one there along, until one belongs here.
      for (std::size_t home = digit_of(key); home != d; home = digit_of(key)) {
        const std::uint64_t displaced = load_key(first + next[home]);
        store_key(first + next[home]++, key);
        key = displaced;
      }
      store_key(first + next[d]++, key);
    }
  }
  for (std::size_t d = 0; d < 256; ++d) {
    const std::uint64_t differing = all_ones[d] ^ any_ones[d];
    if (end[d + 1] - end[d] > 1 && differing != 0)
      sort_keys(first + end[d], first + end[d + 1], 63 - std::countl_zero(differing));
  }
}

}  // namespace

void sort_ascending(std::vector<double>& values) {
  // Below this a comparison sort is as fast.
  constexpr std::size_t kRadixFrom = 1 << 14;
  if (values.size() < kRadixFrom) {
    std::sort(values.begin(), values.end());
    return;
  }
  // Each value's slot holds its order key while sorting (copied bit for bit: memcpy is how
  // C++ lets a double's bytes be read as an integer). The leading bits all keys share (the
  // sign and exponent of times of one magnitude) need no pass: sorting starts at the highest
  // bit in which keys differ.
  std::uint64_t all_ones = ~std::uint64_t{0}, any_ones = 0;
  for (double& v : values) {
    const std::uint64_t key = order_key(v);
    all_ones &= key;
    any_ones |= key;
    store_key(&v, key);
  }
  if (all_ones != any_ones)
    sort_keys(values.data(), values.data() + values.size(),
              63 - std::countl_zero(all_ones ^ any_ones));
  for (double& v : values) v = from_order_key(load_key(&v));
}

SampleSummary summarize(std::span<const double> values) {
  std::vector<double> sorted(values.begin(), values.end());
  sort_ascending(sorted);
  return summarize_sorted(sorted);
}

SampleSummary summarize_sorted(std::span<const double> sorted) {
  SampleSummary s;
  s.n = sorted.size();
  if (s.n == 0) return s;
  s.min = sorted.front();
  s.max = sorted.back();
  const std::size_t mid = s.n / 2;
  s.median = s.n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  double sum = 0;
  for (const double x : sorted) sum += x;
  const double n = static_cast<double>(s.n);
  s.mean = sum / n;
  double squares = 0;
  for (const double x : sorted) squares += (x - s.mean) * (x - s.mean);
  s.population_stddev = std::sqrt(squares / n);
  if (s.n >= 2) {
    s.stddev = std::sqrt(squares / (n - 1));
    s.standard_error = s.stddev / std::sqrt(n);
  }
  if (s.mean != 0) s.relative_standard_error = s.standard_error / std::fabs(s.mean);
  return s;
}

double normal_quantile(double p) {
  // Acklam's coefficients for the central region and the two tails.
  static constexpr std::array<double, 6> a = {-3.969683028665376e+01, 2.209460984245205e+02,
                                              -2.759285104469687e+02, 1.383577518672690e+02,
                                              -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr std::array<double, 5> b = {-5.447609879822406e+01, 1.615858368580409e+02,
                                              -1.556989798598866e+02, 6.680131188771972e+01,
                                              -1.328068155288572e+01};
  static constexpr std::array<double, 6> c = {-7.784894002430293e-03, -3.223964580411365e-01,
                                              -2.400758277161838e+00, -2.549732539343734e+00,
                                              4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr std::array<double, 4> d = {7.784695709041462e-03, 3.224671290700398e-01,
                                              2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  if (p < kLow) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - kLow) return -normal_quantile(1 - p);
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

namespace {

// P(|T| ≤ t) for Student's t with ν degrees of freedom, by the closed forms for integer ν
// (Abramowitz & Stegun 26.7.3 and 26.7.4) in θ = atan(t / √ν).
double student_t_central_probability(double t, std::size_t v) {
  const double theta = std::atan(t / std::sqrt(static_cast<double>(v)));
  const double c2 = std::cos(theta) * std::cos(theta);
  double term = 1, sum = 1;
  if (v % 2 == 0) {
    for (std::size_t k = 2; k + 2 <= v; k += 2) {
      term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
      sum += term;
    }
    return std::sin(theta) * sum;
  }
  if (v == 1) return 2 * theta / std::numbers::pi;
  for (std::size_t k = 3; k + 2 <= v; k += 2) {
    term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
    sum += term;
  }
  return 2 / std::numbers::pi * (theta + std::sin(theta) * std::cos(theta) * sum);
}

// Hill (1970), Algorithm 396's expansion in powers of 1/ν around the normal quantile.
double student_t_quantile_expansion(double p, double v) {
  const double z = normal_quantile(p), z2 = z * z;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

}  // namespace

double student_t_quantile(double confidence, std::size_t degrees_of_freedom) {
  const double p = (1 + confidence) / 2;  // one-sided
  // Beyond a few hundred degrees the expansion is exact to far more digits than any sample has.
  constexpr std::size_t kExactUpTo = 300;
  if (degrees_of_freedom > kExactUpTo)
    return student_t_quantile_expansion(p, static_cast<double>(degrees_of_freedom));
  // Bisection on the exact distribution; the quantile lies below the ν = 1 one.
  double low = 0, high = std::tan(std::numbers::pi * (p - 0.5)) + 1;
  for (int i = 0; i < 100 && high - low > 1e-12 * high; ++i) {
    const double mid = (low + high) / 2;
    (student_t_central_probability(mid, degrees_of_freedom) < confidence ? low : high) = mid;
  }
  return (low + high) / 2;
}

ConfidenceInterval mean_confidence_interval(const SampleSummary& s, double confidence) {
  if (s.n < 2) return {s.mean, s.mean};
  const double half = student_t_quantile(confidence, s.n - 1) * s.standard_error;
  return {s.mean - half, s.mean + half};
}

}  // namespace collwrap
