// One pair's offset measurement (MPIPerf's min-round-trip ping-pong), shared by the linear,
// ring and tree algorithms. The reference process pings, the peer answers with its clock; at
// the end the reference sends the peer its estimate, so both sides know it. Plus the
// collective moves of estimates between process 0 and the others.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "record/clock_offset.h"
#include "record/process_group.h"

namespace collwrap::tracer {

// Reference side: measures `peer`'s offset to this process's clock.
OffsetEstimate measure_peer(ProcessGroup& group, int peer, std::uint32_t patience);

// Peer side: answers `reference`'s pings; returns this process's offset to the reference's clock.
OffsetEstimate answer_reference(ProcessGroup& group, int reference);

// Process 0 receives every process's estimate (in rank order); the others get an empty vector.
std::vector<OffsetEstimate> gather_estimates(ProcessGroup& group, const OffsetEstimate& own);

// Process 0 sends process i all[i]; every process returns its own.
OffsetEstimate scatter_estimates(ProcessGroup& group, const std::vector<OffsetEstimate>& all);

// An estimate on the wire: three 64-bit words.
std::array<std::int64_t, 3> pack_estimate(const OffsetEstimate& e);
OffsetEstimate unpack_estimate(std::span<const std::int64_t, 3> words);

// Upper bound on exchanges per pair, so a noisy machine cannot stall start-up.
constexpr std::uint32_t max_exchanges_for(std::uint32_t patience) {
  return 10 * patience + 10;
}

}  // namespace collwrap::tracer
