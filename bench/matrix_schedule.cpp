#include "matrix_schedule.h"

#include <algorithm>

namespace collwrap::bench {

std::vector<RankPair> ordered_pairs(int world_size) {
  std::vector<RankPair> pairs;
  for (int sender = 0; sender < world_size; ++sender)
    for (int receiver = 0; receiver < world_size; ++receiver)
      if (sender != receiver) pairs.push_back({sender, receiver});
  return pairs;
}

bool measures_one_pair_at_a_time(MatrixMode mode) {
  return mode != MatrixMode::AllToAll;
}

bool has_noise(MatrixMode mode) {
  return mode == MatrixMode::NoiseBlocking || mode == MatrixMode::Noise;
}

bool nonblocking(MatrixMode mode) {
  return mode == MatrixMode::AsyncOneToOne || mode == MatrixMode::Noise;
}

bool receiver_times(MatrixMode mode) {
  return mode != MatrixMode::SendRecvAndRecvSend;
}

std::vector<int> NoiseRankChooser::choose(int world_size, RankPair pair, int count) {
  std::vector<int> candidates;
  for (int rank = 0; rank < world_size; ++rank)
    if (rank != pair.sender && rank != pair.receiver) candidates.push_back(rank);
  const std::size_t chosen = std::min(candidates.size(), std::size_t(std::max(count, 0)));
  // Partial Fisher–Yates: the first `chosen` places end up a uniform random subset.
  for (std::size_t i = 0; i < chosen; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, candidates.size() - 1);
    std::swap(candidates[i], candidates[pick(engine_)]);
  }
  candidates.resize(chosen);
  std::sort(candidates.begin(), candidates.end());
  return candidates;
}

}  // namespace collwrap::bench
