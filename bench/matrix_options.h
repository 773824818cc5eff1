// The options of `collwrap-bench matrix` (network_test's parameters) and the rules that turn
// them into message lengths and a number of noise ranks. No MPI here, so that the unit tests
// check every rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arguments.h"

namespace collwrap::bench {

// network_test's six modes; MatrixMode's order is kMatrixModeNames' order.
enum class MatrixMode {
  OneToOne,             // one pair at a time, MPI_Send → MPI_Recv, the receiver times MPI_Recv
  AllToAll,             // everyone at once, MPI_Isend/MPI_Irecv, Irecv posted → Waitany done
  SendRecvAndRecvSend,  // one pair at a time, there and back; half the round trip
  AsyncOneToOne,        // one_to_one with MPI_Isend/MPI_Irecv and MPI_Wait
  NoiseBlocking,        // one_to_one while random noise ranks exchange all-to-all
  Noise,                // async_one_to_one while random noise ranks exchange all-to-all
};
inline const std::vector<std::string_view> kMatrixModeNames = {
    "one_to_one",       "all_to_all",     "send_recv_and_recv_send",
    "async_one_to_one", "noise_blocking", "noise"};
std::string_view mode_name(MatrixMode mode);

// Which heatmaps to draw: one colour scale per statistic across all message lengths (global),
// one per matrix (local), or both.
enum class Normalization { Global, Local, Both };

struct MatrixOptions {
  MatrixMode mode = MatrixMode::OneToOne;
  std::vector<std::size_t> lengths;  // message lengths in bytes, ascending
  int repeats = 100;                 // timed exchanges per pair and length
  // Noise modes: --noise-ranks wins over --noise-fraction (of the ranks outside the pair).
  std::optional<int> noise_ranks;
  double noise_fraction = 1.0;
  int noise_messages = 100;  // per noise partner while one pair is measured
  std::size_t noise_length = 65536;
  std::uint64_t seed = 1;
  std::string output;  // empty: a new collwrap-matrix-<date>-<time> directory
  bool svg = true;
  Normalization normalization = Normalization::Both;
};

// Reads every option of the subcommand and rejects the rest (Arguments::finish). Throws
// UsageError for contradictions, e.g. both --step and --factor.
MatrixOptions parse_matrix_options(Arguments& args);

// begin, begin+step, … up to end inclusive (network_test's arithmetic series). Throws
// UsageError unless begin ≤ end and step ≥ 1 (step may be anything when begin == end).
std::vector<std::size_t> arithmetic_lengths(std::size_t begin, std::size_t end, std::size_t step);

// How many noise ranks accompany each measured pair in a world of `world_size` ranks: the
// --noise-ranks count, else the fraction of the ranks outside the pair, rounded, but at least
// two when any are wanted and two exist (noise ranks exchange among themselves, so a single
// one would be silent). Throws UsageError when --noise-ranks asks for more ranks than exist.
int noise_rank_count(const MatrixOptions& options, int world_size);

}  // namespace collwrap::bench
