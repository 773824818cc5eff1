// Virtual topologies of communicators, from the archive's definitions: who each rank receives
// from (in-neighbors) and sends to (out-neighbors) in a neighborhood collective.
//
// Cartesian communicators come as OTF2 CartTopology definitions (dimension sizes and
// periodicity, each rank's CartCoordinate); MPI's neighbors of a Cartesian rank are, for each
// dimension in order, the rank one step back and the one one step forward (wrapping around in
// a periodic dimension, none past the edge of another), both in- and out-neighbors. Graph and
// distributed-graph communicators come as lists of neighbors per rank (see the README's trace
// conventions).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "trace_model.h"

namespace collwrap {

// Names of the graph topologies' LocationGroupProperty definitions, before the Comm's decimal
// id (the tracer's definitions_unifier.h writes them).
inline constexpr std::string_view kInNeighborsProperty = "collwrap::in_neighbors::";
inline constexpr std::string_view kOutNeighborsProperty = "collwrap::out_neighbors::";

struct CartesianTopology {
  std::vector<std::uint32_t> dims;
  std::vector<bool> periodic;
  // index = rank within the communicator; empty where the archive gives no coordinate
  std::vector<std::vector<std::uint32_t>> coords;
};

// The neighbors of every rank, in MPI's order; a rank without (valid) coordinates has none.
NeighborLists cartesian_neighbors(const CartesianTopology& topology);

// Neighbor lists in MPI_COMM_WORLD ranks → ranks within `comm`; ranks outside it are dropped.
std::vector<std::uint32_t> ranks_within(const Communicator& comm,
                                        const std::vector<std::int32_t>& world_ranks);

}  // namespace collwrap
