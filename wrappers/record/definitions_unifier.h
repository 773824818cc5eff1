// Unification of the ranks' local definitions into one global definition set, plus the
// per-rank tables that map each rank's local ids (groups, windows, call sites) to global ones.
// Pure: rank 0 runs it at finalize, collwrap-recover runs it on sidecar files, tests run it on
// hand-made input.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "record/local_definitions.h"
#include "record/recorder.h"

namespace collwrap::tracer {

inline constexpr std::uint32_t kUndefinedRef = 0xFFFFFFFFu;

struct GlobalDefinitions {
  std::vector<std::string> strings;  // StringRef = index
  struct ParadigmName {
    Paradigm paradigm;
    std::uint32_t name;
  };
  std::vector<ParadigmName> paradigms;  // those of the region tables, in their order
  // Fixed strings: the CallSite and PcontrolLevel attributes' names and descriptions, "".
  std::uint32_t callsite_name = 0, callsite_description = 0, empty = 0;
  std::uint32_t pcontrol_level_name = 0, pcontrol_level_description = 0;
  std::uint32_t upc_sync_flags_name = 0, upc_sync_flags_description = 0;

  double timer_resolution = 1e9;    // ticks per second
  std::uint64_t global_offset = 0;  // earliest corrected timestamp
  std::uint64_t trace_length = 0;   // latest corrected timestamp - global_offset
  std::int64_t realtime_ns = 0;     // CLOCK_REALTIME at global_offset, 0 when unknown

  struct SystemTreeNode {
    std::uint32_t name, class_name, parent;
    bool is_host;
  };
  std::vector<SystemTreeNode> nodes;  // [0] = the machine, then one per host

  struct LocationGroup {
    std::uint32_t rank, name, node;
  };
  std::vector<LocationGroup> location_groups;  // LocationGroupRef = rank

  struct Location {
    std::uint64_t id;
    std::uint32_t name;
    std::uint64_t events;
    std::uint32_t group;
  };
  std::vector<Location> locations;  // sorted by (rank, thread)

  struct Region {
    std::uint32_t name, canonical_name, file, begin_line;
    std::uint8_t paradigm;  // OTF2_Paradigm: a table's, or OTF2_PARADIGM_USER for user code
    std::uint8_t role;      // OTF2_RegionRole
  };
  // RegionRef = index; [0, region count of the tables) = the region tables' entries
  std::vector<Region> regions;

  enum class GroupKind : std::uint8_t { CommLocations, CommGroup };
  struct Group {
    GroupKind kind;
    Paradigm paradigm;
    std::uint32_t name;
    std::vector<std::uint64_t> members;  // location ids (CommLocations) or world ranks
  };
  // First one COMM_LOCATIONS group (one location per world rank) per paradigm, in the order
  // of `paradigms`, then the COMM_GROUPs of the groups.
  std::vector<Group> groups;

  struct Comm {
    std::uint32_t name, group;
  };
  std::vector<Comm> comms;

  // Virtual topologies (GroupTopology). Cartesian ones as OTF2 defines them; each topology has
  // its own dimensions, listed in order.
  struct CartDimension {
    std::uint32_t name, size;
    bool periodic;
  };
  std::vector<CartDimension> cart_dimensions;
  struct CartTopology {
    std::uint32_t name, comm;
    std::vector<std::uint32_t> dimensions;
  };
  std::vector<CartTopology> cart_topologies;
  struct CartCoordinate {
    std::uint32_t topology, rank;  // rank within the topology's communicator
    std::vector<std::uint32_t> coordinates;
  };
  std::vector<CartCoordinate> cart_coordinates;
  // Graph topologies: a LocationGroupProperty of type GROUP on each member's location group,
  // named kInNeighborsProperty or kOutNeighborsProperty followed by the Comm's id, whose value
  // is a COMM_GROUP of the neighbors' world ranks in MPI's order.
  struct NeighborProperty {
    std::uint32_t location_group, name, group;
  };
  std::vector<NeighborProperty> neighbor_properties;

  struct RmaWin {
    std::uint32_t name, comm;
  };
  std::vector<RmaWin> windows;

  struct SourceCodeLocation {
    std::uint32_t file, line;
  };
  std::vector<SourceCodeLocation> source_code_locations;

  struct CallingContext {
    std::uint32_t region, source_code_location, parent;  // parent: kUndefinedRef at the root
  };
  std::vector<CallingContext> calling_contexts;  // parents come before their children
};

// Names of the graph topologies' neighbor properties, before the Comm's decimal id.
inline constexpr const char* kInNeighborsProperty = "collwrap::in_neighbors::";
inline constexpr const char* kOutNeighborsProperty = "collwrap::out_neighbors::";

struct UnifiedDefinitions {
  GlobalDefinitions global;
  std::vector<RankMapping> mappings;  // parallel to the input ranks
  std::vector<std::string> warnings;  // for the user, one line each
};

// Relative difference of two ranks' timer rates above which readers would misplace events.
inline constexpr double kMaxTimerRateMismatch = 1e-4;

UnifiedDefinitions unify_definitions(std::span<const LocalDefinitions> ranks,
                                     std::span<const RegionTable> tables);

// "MPI", "SHMEM", "UPC": the Paradigm definition's name, also the file of the paradigm's regions.
const char* paradigm_name(Paradigm paradigm);

}  // namespace collwrap::tracer
