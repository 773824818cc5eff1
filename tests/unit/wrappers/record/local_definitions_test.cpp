#include "record/local_definitions.h"

#include <gtest/gtest.h>

namespace collwrap::tracer {
namespace {

LocalDefinitions sample() {
  LocalDefinitions d;
  d.world_rank = 2;
  d.world_size = 4;
  d.host = "node7";
  d.program = "jacobi";
  d.timer_resolution = 2.4e9;
  d.calibration_span_ns = 1'500'000'000;
  d.first_time = 1000;
  d.last_time = 9000;
  d.realtime_anchor_ticks = 1200;
  d.realtime_anchor_ns = 1'700'000'000'000'000'000;
  d.offsets = {{1100, -42, 1e-6}, {8900, -40, 2e-6}};
  d.locations = {{0, 120}, {1, 30}};
  d.process_label = "MPI Rank";
  d.groups = {{0, Paradigm::Mpi, 0, "MPI_COMM_WORLD", {0, 1, 2, 3}},
              {3, Paradigm::Shmem, (2ull << 32) | 1, "split", {2, 3}},
              {4,
               Paradigm::Mpi,
               9,
               "grid",
               {0, 1, 2, 3},
               {GroupTopology::Kind::Cartesian, {2, 2}, {1, 0}, {1, 0}, {}, {}}},
              {6,
               Paradigm::Mpi,
               11,
               "graph",
               {3, 2},
               {GroupTopology::Kind::Graph, {}, {}, {}, {1}, {0, 1}}}};
  d.windows = {{5, 7, "heap", 3}};
  d.callsites = {{0, {{"main", "main", "/src/a.c", 10, "/src/a.c", 42}}},
                 {1,
                  {{"halo", "_Z4halov", "/src/b.cpp", 5, "/src/b.cpp", 9},
                   {"main", "main", "/src/a.c", 10, "/src/a.c", 50}}}};
  return d;
}

TEST(LocalDefinitions, RoundTrips) {
  LocalDefinitions d = sample();
  ByteWriter out;
  d.serialize(out);
  auto back = LocalDefinitions::deserialize(out.bytes());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->world_rank, 2u);
  EXPECT_EQ(back->host, "node7");
  EXPECT_EQ(back->timer_resolution, 2.4e9);
  EXPECT_EQ(back->offsets, d.offsets);
  ASSERT_EQ(back->locations.size(), 2u);
  EXPECT_EQ(back->locations[1].events, 30u);
  EXPECT_EQ(back->process_label, "MPI Rank");
  ASSERT_EQ(back->groups.size(), 4u);
  EXPECT_EQ(back->groups[0].topology, GroupTopology{});
  EXPECT_EQ(back->groups[2].topology, d.groups[2].topology);
  EXPECT_EQ(back->groups[3].topology, d.groups[3].topology);
  EXPECT_EQ(back->groups[1].key, (2ull << 32) | 1);
  EXPECT_EQ(back->groups[1].paradigm, Paradigm::Shmem);
  EXPECT_EQ(back->groups[1].members, (std::vector<std::int32_t>{2, 3}));
  ASSERT_EQ(back->windows.size(), 1u);
  EXPECT_EQ(back->windows[0].id, 5u);
  EXPECT_EQ(back->windows[0].key, 7u);
  EXPECT_EQ(back->windows[0].name, "heap");
  EXPECT_EQ(back->windows[0].group, 3u);
  ASSERT_EQ(back->callsites.size(), 2u);
  EXPECT_EQ(back->callsites[1].frames, d.callsites[1].frames);
}

TEST(LocalDefinitions, RejectsTruncatedAndForeignBytes) {
  ByteWriter out;
  sample().serialize(out);
  auto bytes = out.bytes();
  bytes.pop_back();
  EXPECT_FALSE(LocalDefinitions::deserialize(bytes).has_value());
  bytes = out.bytes();
  bytes[0] ^= 0xFF;
  EXPECT_FALSE(LocalDefinitions::deserialize(bytes).has_value());
  EXPECT_FALSE(LocalDefinitions::deserialize({}).has_value());
}

TEST(RankMapping, RoundTrips) {
  RankMapping m{{{0, 0}, {3, 1}}, {{0, 5}, {1, 7}}, {{4, 0}}, {{3, 2}}};
  ByteWriter out;
  m.serialize(out);
  auto back = RankMapping::deserialize(out.bytes());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->comms, m.comms);
  EXPECT_EQ(back->callsites, m.callsites);
  EXPECT_EQ(back->windows, m.windows);
  EXPECT_EQ(back->groups, m.groups);
  EXPECT_FALSE(RankMapping::deserialize({}).has_value());
}

}  // namespace
}  // namespace collwrap::tracer
