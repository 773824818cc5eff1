#include "matrix_options.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collwrap::bench {

std::string_view mode_name(MatrixMode mode) {
  return kMatrixModeNames.at(std::size_t(mode));
}

std::vector<std::size_t> arithmetic_lengths(std::size_t begin, std::size_t end, std::size_t step) {
  if (begin > end) throw UsageError("message lengths need --begin <= --end");
  if (begin == end) return {begin};
  if (step == 0) throw UsageError("--step must be at least 1");
  std::vector<std::size_t> lengths;
  for (std::size_t length = begin;; length += step) {
    lengths.push_back(length);
    if (end - length < step) break;  // the next one would pass end (or overflow)
  }
  return lengths;
}

MatrixOptions parse_matrix_options(Arguments& args) {
  constexpr long long kMaxLength = 1LL << 30;  // MPI counts are int; keep far from the limit
  MatrixOptions o;
  const std::string mode = args.choice("mode", kMatrixModeNames.front(), kMatrixModeNames);
  o.mode = MatrixMode(std::find(kMatrixModeNames.begin(), kMatrixModeNames.end(), mode) -
                      kMatrixModeNames.begin());
  const auto begin = std::size_t(args.integer("begin", 0, 0, kMaxLength));
  const auto end = std::size_t(args.integer("end", 10000, 0, kMaxLength));
  const auto step = args.text("step");
  const auto factor = args.text("factor");
  if (step && factor) throw UsageError("give either --step or --factor, not both");
  if (factor)
    o.lengths = size_series(begin, end, std::size_t(args.integer("factor", 2, 2, 1 << 20)));
  else
    o.lengths =
        arithmetic_lengths(begin, end, std::size_t(args.integer("step", 1000, 1, kMaxLength)));
  o.repeats = int(args.integer("repeats", o.repeats, 1, 1000000));
  if (args.text("noise-ranks"))
    o.noise_ranks = int(args.integer("noise-ranks", 0, 0, std::numeric_limits<int>::max()));
  o.noise_fraction = args.number("noise-fraction", o.noise_fraction, 0.0, 1.0);
  o.noise_messages = int(args.integer("noise-messages", o.repeats, 0, 1000000));
  o.noise_length = std::size_t(args.integer("noise-length", 65536, 0, kMaxLength));
  o.seed = std::uint64_t(args.integer("seed", 1, 0, std::numeric_limits<long long>::max()));
  o.output = args.text("output").value_or("");
  o.svg = args.choice("heatmaps", "svg", {"none", "svg"}) == "svg";
  const std::string normalization =
      args.choice("normalization", "both", {"global", "local", "both"});
  o.normalization = normalization == "global"  ? Normalization::Global
                    : normalization == "local" ? Normalization::Local
                                               : Normalization::Both;
  args.finish();
  return o;
}

int noise_rank_count(const MatrixOptions& options, int world_size) {
  const int outside_pair = std::max(0, world_size - 2);
  if (options.noise_ranks) {
    if (*options.noise_ranks > outside_pair)
      throw UsageError("--noise-ranks " + std::to_string(*options.noise_ranks) + " needs " +
                       std::to_string(*options.noise_ranks + 2) +
                       " ranks (the measured pair plus the noise ranks); run with more ranks "
                       "or ask for fewer noise ranks");
    return *options.noise_ranks;
  }
  const int wanted = int(std::lround(options.noise_fraction * outside_pair));
  if (options.noise_fraction > 0 && outside_pair >= 2) return std::max(wanted, 2);
  return wanted;
}

}  // namespace collwrap::bench
