// Who exchanges with whom in `collwrap-bench matrix`, and which rank times it. No MPI here:
// every rank computes the same schedule (and draws the same noise ranks from the same seed), so
// the ranks agree without messages.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "matrix_options.h"

namespace collwrap::bench {

struct RankPair {
  int sender = 0;
  int receiver = 0;
  bool operator==(const RankPair&) const = default;
};

// Every ordered pair of distinct ranks, sender-major (0→1, 0→2, …, 1→0, 1→2, …): the pairwise
// modes measure them one at a time in this order, as network_test does.
std::vector<RankPair> ordered_pairs(int world_size);

// all_to_all measures every pair at once; the other modes one pair at a time.
bool measures_one_pair_at_a_time(MatrixMode mode);
bool has_noise(MatrixMode mode);
// MPI_Isend/MPI_Irecv + MPI_Wait rather than MPI_Send/MPI_Recv for the measured pair.
bool nonblocking(MatrixMode mode);
// The receiver times cell sender → receiver (the time of its receive); in
// send_recv_and_recv_send the sender times the round trip it starts.
bool receiver_times(MatrixMode mode);

// Draws the noise ranks of each measured pair: `count` distinct ranks outside the pair, uniform
// over all such choices, ascending. The same seed gives the same sequence of draws.
class NoiseRankChooser {
 public:
  explicit NoiseRankChooser(std::uint64_t seed) : engine_(seed) {}
  std::vector<int> choose(int world_size, RankPair pair, int count);

 private:
  std::mt19937_64 engine_;
};

}  // namespace collwrap::bench
