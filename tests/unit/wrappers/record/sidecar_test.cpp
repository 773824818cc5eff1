#include "record/sidecar.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace collwrap::tracer {
namespace {
namespace fs = std::filesystem;

class SidecarFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("collwrap-sidecar-test-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

const RegionInfo kMpiFunctions[] = {{"MPI_Init", 1}, {"MPI_Send", 28}};
const RegionInfo kShmemFunctions[] = {{"shmem_barrier_all", 29}};
const RegionTable kFunctions[] = {{Paradigm::Mpi, kMpiFunctions},
                                  {Paradigm::Shmem, kShmemFunctions}};

LocalDefinitions definitions() {
  LocalDefinitions d;
  d.world_rank = 3;
  d.world_size = 4;
  d.host = "node1";
  d.locations = {{0, 42}};
  d.offsets = {{100, -5, 1e-6}};
  return d;
}

TEST_F(SidecarFile, NamesFollowTheRank) {
  EXPECT_EQ(sidecar_path("/t", 12), "/t/collwrap-rank-12.sidecar");
  EXPECT_TRUE(is_sidecar_file_name("collwrap-rank-12.sidecar"));
  EXPECT_FALSE(is_sidecar_file_name("collwrap-rank-12.sidecar.tmp"));
  EXPECT_FALSE(is_sidecar_file_name("traces.otf2"));
}

TEST_F(SidecarFile, RoundTripsDefinitionsAndRegionTables) {
  std::string path = sidecar_path(dir_.string(), 3);
  ASSERT_TRUE(write_sidecar(path, definitions(), kFunctions));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  auto back = read_sidecar(path);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->definitions.world_rank, 3u);
  EXPECT_EQ(back->definitions.locations[0].events, 42u);
  EXPECT_EQ(back->definitions.offsets, definitions().offsets);
  auto tables = back->region_tables();
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].paradigm, Paradigm::Mpi);
  ASSERT_EQ(tables[0].regions.size(), 2u);
  EXPECT_STREQ(tables[0].regions[1].name, "MPI_Send");
  EXPECT_EQ(tables[0].regions[1].role, 28);
  EXPECT_EQ(tables[1].paradigm, Paradigm::Shmem);
  ASSERT_EQ(tables[1].regions.size(), 1u);
  EXPECT_STREQ(tables[1].regions[0].name, "shmem_barrier_all");
}

TEST_F(SidecarFile, TruncatedOrMissingFilesAreRejected) {
  std::string path = sidecar_path(dir_.string(), 0);
  EXPECT_FALSE(read_sidecar(path).has_value());
  ASSERT_TRUE(write_sidecar(path, definitions(), kFunctions));
  fs::resize_file(path, fs::file_size(path) - 1);
  EXPECT_FALSE(read_sidecar(path).has_value());
}

TEST_F(SidecarFile, WritingIntoAMissingDirectoryFails) {
  EXPECT_FALSE(write_sidecar((dir_ / "missing" / "x.sidecar").string(), definitions(), kFunctions));
}

}  // namespace
}  // namespace collwrap::tracer
