// One pair's offset measurement (MPIPerf's min-round-trip ping-pong), shared by the linear,
// ring and tree algorithms. The reference rank pings, the peer answers with its clock; at the
// end the reference sends the peer its estimate, so both sides know it. Plus the collective
// moves of estimates between rank 0 and the others.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "backend/clock_offset.h"

namespace collwrap::tracer {

// Reference side: measures `peer`'s offset to this rank's clock. Uses PMPI only.
OffsetEstimate measure_peer(MPI_Comm comm, int peer, std::uint32_t patience);

// Peer side: answers `reference`'s pings; returns this rank's offset to the reference's clock.
OffsetEstimate answer_reference(MPI_Comm comm, int reference);

// Rank 0 receives every rank's estimate (in rank order); other ranks get an empty vector.
std::vector<OffsetEstimate> gather_estimates(MPI_Comm comm, const OffsetEstimate& own);

// Rank 0 sends rank i all[i]; every rank returns its own.
OffsetEstimate scatter_estimates(MPI_Comm comm, const std::vector<OffsetEstimate>& all);

// Upper bound on exchanges per pair, so a noisy machine cannot stall start-up.
constexpr std::uint32_t max_exchanges_for(std::uint32_t patience) {
  return 10 * patience + 10;
}

}  // namespace collwrap::tracer
