#include "record/definitions_unifier.h"

#include <gtest/gtest.h>
#include <otf2/OTF2_GeneralDefinitions.h>

#include <algorithm>

#include "record/location_id.h"

namespace collwrap::tracer {
namespace {

const RegionInfo kMpiFunctions[] = {{"MPI_Init", 4}, {"MPI_Send", 5}, {"MPI_Finalize", 4}};
const RegionTable kFunctions[] = {{Paradigm::Mpi, kMpiFunctions}};

LocalDefinitions rank_defs(std::uint32_t rank, const std::string& host) {
  LocalDefinitions d;
  d.world_rank = rank;
  d.world_size = 3;
  d.host = host;
  d.process_label = "MPI Rank";
  d.timer_resolution = 1e9;
  d.first_time = 1000 + rank;
  d.last_time = 5000 + rank;
  d.locations = {{0, 10}};
  d.groups = {
      {0, Paradigm::Mpi, 0, "MPI_COMM_WORLD", {0, 1, 2}},
      {1, Paradigm::Mpi, (std::uint64_t(rank) << 32) | 1, "MPI_COMM_SELF", {std::int32_t(rank)}}};
  ResolvedFrame main_line_20{"main", "main", "/src/app.c", 10, "/src/app.c", 20};
  d.callsites = {{0, {main_line_20}}};
  return d;
}

const std::string& str(const GlobalDefinitions& g, std::uint32_t ref) {
  return g.strings.at(ref);
}

TEST(Unify, OneCommPerKeyAndOneGroupPerMemberList) {
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a"), rank_defs(1, "a"), rank_defs(2, "b")};
  UnifiedDefinitions u = unify_definitions(ranks, kFunctions);
  const GlobalDefinitions& g = u.global;
  // WORLD once, plus three distinct self communicators.
  ASSERT_EQ(g.comms.size(), 4u);
  EXPECT_EQ(str(g, g.comms[0].name), "MPI_COMM_WORLD");
  EXPECT_EQ(g.groups[g.comms[0].group].members, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(g.groups[g.comms[0].group].kind, GlobalDefinitions::GroupKind::CommGroup);
  EXPECT_EQ(g.groups[0].kind, GlobalDefinitions::GroupKind::CommLocations);
  EXPECT_EQ(g.groups[0].members, (std::vector<std::uint64_t>{0, 1, 2}));
  // Every rank maps its local WORLD (id 0) to the same global comm, SELF to its own.
  for (std::size_t r = 0; r < 3; ++r) {
    const RankMapping& m = u.mappings[r];
    ASSERT_EQ(m.comms.size(), 2u);
    EXPECT_EQ(m.comms[0], std::make_pair(0u, 0u));
    std::uint32_t self = m.comms[1].second;
    EXPECT_EQ(g.groups[g.comms[self].group].members, (std::vector<std::uint64_t>{r}));
  }
}

TEST(Unify, CartesianTopologyOnceWithACoordinatePerRank) {
  // A 3 × 1 grid, periodic in its first dimension, over world ranks 2, 0, 1 (ranks 0, 1, 2).
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a"), rank_defs(1, "a"), rank_defs(2, "b")};
  const std::vector<std::int32_t> members{2, 0, 1};
  for (LocalDefinitions& r : ranks) {
    GroupTopology t{GroupTopology::Kind::Cartesian, {3, 1}, {1, 0}, {}, {}, {}};
    const auto rank = std::uint32_t(
        std::find(members.begin(), members.end(), std::int32_t(r.world_rank)) - members.begin());
    t.coords = {rank, 0};
    r.groups.push_back({2, Paradigm::Mpi, 99, "grid", members, t});
  }
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  ASSERT_EQ(g.cart_topologies.size(), 1u);
  EXPECT_EQ(str(g, g.comms[g.cart_topologies[0].comm].name), "grid");
  ASSERT_EQ(g.cart_topologies[0].dimensions.size(), 2u);
  const auto& first = g.cart_dimensions[g.cart_topologies[0].dimensions[0]];
  EXPECT_EQ(first.size, 3u);
  EXPECT_TRUE(first.periodic);
  EXPECT_FALSE(g.cart_dimensions[g.cart_topologies[0].dimensions[1]].periodic);
  ASSERT_EQ(g.cart_coordinates.size(), 3u);
  for (const auto& c : g.cart_coordinates) {
    EXPECT_EQ(c.topology, 0u);
    EXPECT_EQ(c.coordinates, (std::vector<std::uint32_t>{c.rank, 0}));
  }
  EXPECT_TRUE(g.neighbor_properties.empty());
}

TEST(Unify, GraphNeighborsBecomeGroupsOfWorldRanksNamedByProperties) {
  // A directed ring 0 → 1 → 2 → 0 over world ranks 1, 2, 0 (ranks 0, 1, 2 of the graph).
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a"), rank_defs(1, "a"), rank_defs(2, "b")};
  const std::vector<std::int32_t> members{1, 2, 0};
  for (LocalDefinitions& r : ranks) {
    const auto rank = std::int32_t(
        std::find(members.begin(), members.end(), std::int32_t(r.world_rank)) - members.begin());
    GroupTopology t{GroupTopology::Kind::Graph, {}, {}, {}, {(rank + 2) % 3}, {(rank + 1) % 3}};
    r.groups.push_back({2, Paradigm::Mpi, 77, "ring", members, t});
  }
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  const auto ring = std::find_if(g.comms.begin(), g.comms.end(),
                                 [&](const auto& c) { return str(g, c.name) == "ring"; });
  ASSERT_NE(ring, g.comms.end());
  const std::string id = std::to_string(ring - g.comms.begin());
  ASSERT_EQ(g.neighbor_properties.size(), 6u);
  for (const auto& p : g.neighbor_properties) {
    // World rank w is graph rank members⁻¹(w); its in-neighbor is the previous graph rank.
    const auto rank =
        std::find(members.begin(), members.end(), std::int32_t(p.location_group)) - members.begin();
    const bool in = str(g, p.name) == kInNeighborsProperty + id;
    EXPECT_TRUE(in || str(g, p.name) == kOutNeighborsProperty + id) << str(g, p.name);
    const std::int32_t neighbor = members[std::size_t((rank + (in ? 2 : 1)) % 3)];
    EXPECT_EQ(g.groups.at(p.group).members, (std::vector<std::uint64_t>{std::uint64_t(neighbor)}));
  }
  EXPECT_TRUE(g.cart_topologies.empty());
}

TEST(Unify, SystemTreeGroupsRanksUnderTheirHosts) {
  std::vector<LocalDefinitions> ranks{rank_defs(2, "b"), rank_defs(0, "a"), rank_defs(1, "a")};
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  ASSERT_EQ(g.nodes.size(), 3u);  // machine, a, b
  EXPECT_EQ(str(g, g.nodes[1].name), "a");
  EXPECT_EQ(str(g, g.nodes[2].name), "b");
  EXPECT_EQ(g.nodes[1].parent, 0u);
  ASSERT_EQ(g.location_groups.size(), 3u);
  EXPECT_EQ(g.location_groups[0].rank, 0u);
  EXPECT_EQ(g.location_groups[0].node, 1u);
  EXPECT_EQ(g.location_groups[2].node, 2u);
  ASSERT_EQ(g.locations.size(), 3u);
  EXPECT_EQ(g.locations[1].id, 1u);
  EXPECT_EQ(g.locations[1].events, 10u);
}

TEST(Unify, ARankWithoutDefinitionsGetsAnEmptyPlaceholder) {
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a"), rank_defs(2, "b")};
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  ASSERT_EQ(g.location_groups.size(), 3u);
  EXPECT_EQ(g.location_groups[1].rank, 1u);
  EXPECT_EQ(g.location_groups[1].node, 0u);  // under the machine: its host is unknown
  ASSERT_EQ(g.locations.size(), 3u);         // COMM_LOCATIONS needs a location for every rank
  EXPECT_EQ(g.locations[1].id, 1u);
  EXPECT_EQ(g.locations[1].events, 0u);
  EXPECT_EQ(g.groups[0].members, (std::vector<std::uint64_t>{0, 1, 2}));
}

TEST(Unify, ThreadLocationsGetPackedIds) {
  LocalDefinitions d = rank_defs(1, "a");
  d.locations = {{1, 5}, {0, 10}};
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a"), d, rank_defs(2, "a")};
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  ASSERT_EQ(g.locations.size(), 4u);
  EXPECT_EQ(g.locations[1].id, pack_location_id(0, 1));
  EXPECT_EQ(g.locations[2].id, pack_location_id(1, 1));
  EXPECT_EQ(g.locations[2].group, 1u);
  EXPECT_EQ(str(g, g.locations[2].name), "Thread 1");
}

TEST(Unify, MpiRegionsComeFirstInTableOrder) {
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a")};
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  ASSERT_GE(g.regions.size(), 4u);
  EXPECT_EQ(str(g, g.regions[1].name), "MPI_Send");
  EXPECT_EQ(str(g, g.regions[1].file), "MPI");
  EXPECT_EQ(g.regions[1].role, 5);
  EXPECT_EQ(g.regions[1].paradigm, OTF2_PARADIGM_MPI);
  EXPECT_EQ(g.regions[3].paradigm, OTF2_PARADIGM_USER);
  EXPECT_EQ(str(g, g.regions[3].name), "main");
}

TEST(Unify, IdenticalCallSitesOfDifferentRanksShareOneCallingContext) {
  std::vector<LocalDefinitions> ranks{rank_defs(0, "a"), rank_defs(1, "a")};
  UnifiedDefinitions u = unify_definitions(ranks, kFunctions);
  ASSERT_EQ(u.global.calling_contexts.size(), 1u);
  EXPECT_EQ(u.mappings[0].callsites, u.mappings[1].callsites);
  const auto& cc = u.global.calling_contexts[0];
  const auto& scl = u.global.source_code_locations[cc.source_code_location];
  EXPECT_EQ(str(u.global, scl.file), "/src/app.c");
  EXPECT_EQ(scl.line, 20u);
  EXPECT_EQ(str(u.global, u.global.regions[cc.region].name), "main");
  EXPECT_EQ(cc.parent, kUndefinedRef);
}

TEST(Unify, DeepCallSitesBecomeParentChains) {
  LocalDefinitions d = rank_defs(0, "a");
  ResolvedFrame inner{"halo", "halo", "/src/halo.c", 3, "/src/halo.c", 8};
  ResolvedFrame outer_a{"main", "main", "/src/app.c", 10, "/src/app.c", 30};
  ResolvedFrame outer_b{"main", "main", "/src/app.c", 10, "/src/app.c", 31};
  d.callsites = {{0, {inner, outer_a}}, {1, {inner, outer_b}}, {2, {outer_a}}};
  std::vector<LocalDefinitions> ranks{d};
  UnifiedDefinitions u = unify_definitions(ranks, kFunctions);
  const auto& g = u.global;
  // main:30, halo:8 under main:30, main:31, halo:8 under main:31; {main:30} alone is reused.
  ASSERT_EQ(g.calling_contexts.size(), 4u);
  std::uint32_t leaf0 = u.mappings[0].callsites[0].second;
  std::uint32_t leaf1 = u.mappings[0].callsites[1].second;
  std::uint32_t only = u.mappings[0].callsites[2].second;
  EXPECT_NE(leaf0, leaf1);
  EXPECT_EQ(g.calling_contexts[leaf0].parent, only);
  EXPECT_EQ(g.source_code_locations[g.calling_contexts[leaf0].source_code_location].line, 8u);
  for (std::size_t i = 0; i < g.calling_contexts.size(); ++i) {
    std::uint32_t parent = g.calling_contexts[i].parent;
    EXPECT_TRUE(parent == kUndefinedRef || parent < i) << "parents are defined first";
  }
}

TEST(Unify, ClockPropertiesSpanTheCorrectedTimes) {
  LocalDefinitions r0 = rank_defs(0, "a");
  LocalDefinitions r1 = rank_defs(1, "a");
  r0.first_time = 1000;
  r0.last_time = 9000;
  r0.realtime_anchor_ticks = 2000;
  r0.realtime_anchor_ns = 1'000'000'000'000;
  // Rank 1's clock is 500 ticks behind: its 600 is rank 0's 1100.
  r1.first_time = 400;
  r1.last_time = 9000;
  r1.offsets = {{400, 500, 0}, {9000, 500, 0}};
  std::vector<LocalDefinitions> ranks{r0, r1};
  const GlobalDefinitions g = unify_definitions(ranks, kFunctions).global;
  EXPECT_EQ(g.global_offset, 900u);
  EXPECT_EQ(g.trace_length, 9500u - 900u);
  EXPECT_EQ(g.realtime_ns, 1'000'000'000'000 - 1100);
}

// A process traced by two adapters: each paradigm gets its Paradigm definition, its regions
// (with its name as their file) and its own COMM_LOCATIONS group; a window unifies by key and
// names the Comm of its group.
TEST(Unify, EveryParadigmHasItsRegionsGroupsAndWindows) {
  const RegionInfo shmem_functions[] = {{"shmem_putmem", 6}, {"shmem_barrier_all", 7}};
  const RegionTable tables[] = {{Paradigm::Mpi, kMpiFunctions}, {Paradigm::Shmem, shmem_functions}};
  std::vector<LocalDefinitions> ranks;
  for (std::uint32_t r = 0; r < 2; ++r) {
    LocalDefinitions d = rank_defs(r, "a");
    d.world_size = 2;
    d.groups = {{0, Paradigm::Mpi, 0, "MPI_COMM_WORLD", {0, 1}},
                {7, Paradigm::Shmem, 0, "SHMEM_TEAM_WORLD", {0, 1}}};
    d.windows = {{3, 42, "symmetric heap", 7}};
    ranks.push_back(d);
  }
  UnifiedDefinitions u = unify_definitions(ranks, tables);
  const GlobalDefinitions& g = u.global;
  ASSERT_EQ(g.paradigms.size(), 2u);
  EXPECT_EQ(str(g, g.paradigms[1].name), "SHMEM");
  EXPECT_EQ(str(g, g.regions[4].name), "shmem_barrier_all");
  EXPECT_EQ(str(g, g.regions[4].file), "SHMEM");
  EXPECT_EQ(g.regions[4].paradigm, OTF2_PARADIGM_SHMEM);
  ASSERT_GE(g.groups.size(), 3u);
  EXPECT_EQ(g.groups[1].kind, GlobalDefinitions::GroupKind::CommLocations);
  EXPECT_EQ(g.groups[1].paradigm, Paradigm::Shmem);
  // Same members and key, different paradigms: two Groups and two Comms.
  ASSERT_EQ(g.comms.size(), 2u);
  EXPECT_EQ(g.groups[g.comms[1].group].paradigm, Paradigm::Shmem);
  ASSERT_EQ(g.windows.size(), 1u);
  EXPECT_EQ(str(g, g.windows[0].name), "symmetric heap");
  EXPECT_EQ(g.windows[0].comm, 1u);
  for (const RankMapping& m : u.mappings) {
    EXPECT_EQ(m.windows, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{3, 0}}));
    EXPECT_EQ(m.groups[1], std::make_pair(7u, g.comms[1].group));
  }
}

TEST(Unify, WarnsAboutTimersRunningAtDifferentRates) {
  LocalDefinitions r0 = rank_defs(0, "a"), r1 = rank_defs(1, "b");
  r0.calibration_span_ns = r1.calibration_span_ns = 1'000'000'000;
  r1.timer_resolution = 1e9 * (1 + 5 * kMaxTimerRateMismatch);
  std::vector<LocalDefinitions> ranks{r0, r1};
  UnifiedDefinitions u = unify_definitions(ranks, kFunctions);
  ASSERT_EQ(u.warnings.size(), 1u);
  EXPECT_NE(u.warnings[0].find("rank 1"), std::string::npos);
  r1.timer_resolution = 1e9 * (1 + kMaxTimerRateMismatch / 2);
  ranks = {r0, r1};
  EXPECT_TRUE(unify_definitions(ranks, kFunctions).warnings.empty());
}

}  // namespace
}  // namespace collwrap::tracer
