#include "mpi/transfer_bytes.h"

#include <algorithm>

namespace collwrap::tracer {

std::uint64_t sum_bytes(std::span<const int> counts, std::uint64_t type_size) {
  std::uint64_t total = 0;
  for (const int count : counts) total += block_bytes(count, type_size);
  return total;
}

std::uint64_t sum_bytes(std::span<const int> counts, std::span<const std::uint64_t> type_sizes) {
  std::uint64_t total = 0;
  const std::size_t n = std::min(counts.size(), type_sizes.size());
  for (std::size_t i = 0; i < n; ++i) total += block_bytes(counts[i], type_sizes[i]);
  return total;
}

std::uint64_t sum_bytes(std::span<const int> counts, std::uint64_t type_size,
                        const std::vector<bool>& real) {
  std::uint64_t total = 0;
  const std::size_t n = std::min(counts.size(), real.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (real[i]) total += block_bytes(counts[i], type_size);
  }
  return total;
}

Transfer one_to_all(const Participation& p, std::uint64_t root_sends, std::uint64_t leaf_block) {
  return {p.root ? root_sends : 0, p.leaf ? leaf_block : 0};
}

Transfer all_to_one(const Participation& p, std::uint64_t leaf_block, std::uint64_t root_receives) {
  return {p.leaf ? leaf_block : 0, p.root ? root_receives : 0};
}

Transfer scan_bytes(int size, int rank, std::uint64_t block) {
  if (rank < 0 || rank >= size) return {};
  return {block_bytes(size - rank, block), block_bytes(rank + 1, block)};
}

Transfer exscan_bytes(int size, int rank, std::uint64_t block) {
  if (rank < 0 || rank >= size) return {};
  return {block_bytes(size - rank - 1, block), block_bytes(rank, block)};
}

}  // namespace collwrap::tracer
