// OTF2 location ids: (thread index << 32) | world rank. The thread that called MPI_Init has
// index 0, so a rank's main location id equals its rank, which keeps COMM_LOCATIONS groups and
// tools that assume "location == rank" for single-threaded runs simple.
#pragma once

#include <cstdint>

namespace collwrap::tracer {

constexpr std::uint64_t pack_location_id(std::uint32_t thread_index, std::uint32_t world_rank) {
  return (std::uint64_t(thread_index) << 32) | world_rank;
}
constexpr std::uint32_t location_rank(std::uint64_t location_id) {
  return std::uint32_t(location_id & 0xFFFFFFFFu);
}
constexpr std::uint32_t location_thread(std::uint64_t location_id) {
  return std::uint32_t(location_id >> 32);
}

}  // namespace collwrap::tracer
