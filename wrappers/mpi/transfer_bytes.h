// How many bytes an MPI call moves, as OTF2's records report them. Pure arithmetic on counts and
// datatype sizes, so every rule is unit-tested without MPI.
//
// Collectives follow the convention of Score-P's traces (which Scalasca's analysis expects):
// each rank reports what its own buffers contribute and receive, counting its own share too
// (the root of a broadcast "sends" to itself). A rank whose send buffer is MPI_IN_PLACE still
// contributes its block, of the size given by its receive arguments. Summed over all ranks,
// bytes sent equal bytes received.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace collwrap::tracer {

struct Transfer {
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  bool operator==(const Transfer&) const = default;
};

// count elements of `type_size` bytes; negative counts (erroneous) move nothing. Inline: every
// send asks.
inline std::uint64_t block_bytes(long long count, std::uint64_t type_size) {
  return count > 0 ? static_cast<std::uint64_t>(count) * type_size : 0;
}

// Σ counts[i] × type_size.
std::uint64_t sum_bytes(std::span<const int> counts, std::uint64_t type_size);

// Σ counts[i] × type_sizes[i] (MPI_Alltoallw).
std::uint64_t sum_bytes(std::span<const int> counts, std::span<const std::uint64_t> type_sizes);

// Σ counts[i] × type_size over the slots where `real[i]` (neighborhood collectives: no data
// moves to or from a MPI_PROC_NULL neighbor of a Cartesian topology).
std::uint64_t sum_bytes(std::span<const int> counts, std::uint64_t type_size,
                        const std::vector<bool>& real);

// How this process takes part in a rooted collective.
struct Participation {
  std::uint64_t peers = 0;  // ranks on the other side: comm size, or remote group size
  bool root = false;        // the root (intercommunicators: passed MPI_ROOT)
  bool leaf = false;        // receives (1→N) or contributes (N→1) a block; intra: every rank
};

// 1→N (Bcast, Scatter, Scatterv): the root sends `root_sends` in total, each leaf receives
// `leaf_block`.
Transfer one_to_all(const Participation& p, std::uint64_t root_sends, std::uint64_t leaf_block);

// N→1 (Gather, Gatherv, Reduce): each leaf sends `leaf_block`, the root receives
// `root_receives` in total.
Transfer all_to_one(const Participation& p, std::uint64_t leaf_block, std::uint64_t root_receives);

// MPI_Scan: rank r combines the blocks of ranks 0..r; its block goes to ranks r..n-1.
Transfer scan_bytes(int size, int rank, std::uint64_t block);

// MPI_Exscan: like Scan without the rank's own block.
Transfer exscan_bytes(int size, int rank, std::uint64_t block);

}  // namespace collwrap::tracer
