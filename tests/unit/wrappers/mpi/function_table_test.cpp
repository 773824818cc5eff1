// The generated region table: one region per wrapped function, with OTF2's region roles.
#include <gtest/gtest.h>
#include <otf2/OTF2_Definitions.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "mpi/mpi_regions.h"

namespace collwrap::tracer {
namespace {

const RegionInfo* find_function(std::string_view name) {
  const auto* end = kMpiRegions + kMpiRegionCount;
  const auto* it =
      std::find_if(kMpiRegions, end, [&](const RegionInfo& f) { return name == f.name; });
  return it == end ? nullptr : it;
}

TEST(FunctionTable, IsSortedByNameWithoutDuplicates) {
  ASSERT_GT(kMpiRegionCount, 300u);  // Open MPI 4.1's C API has about 380 functions
  for (std::uint32_t i = 1; i < kMpiRegionCount; ++i) {
    EXPECT_LT(std::string_view(kMpiRegions[i - 1].name), kMpiRegions[i].name);
  }
}

TEST(FunctionTable, RolesFollowOtf2) {
  const std::pair<const char*, OTF2_RegionRole> expected[] = {
      {"MPI_Send", OTF2_REGION_ROLE_POINT2POINT},
      {"MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT},
      {"MPI_Waitall", OTF2_REGION_ROLE_POINT2POINT},
      {"MPI_Barrier", OTF2_REGION_ROLE_BARRIER},
      {"MPI_Ibarrier", OTF2_REGION_ROLE_BARRIER},
      {"MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL},
      {"MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE},
      {"MPI_Alltoallw", OTF2_REGION_ROLE_COLL_ALL2ALL},
      {"MPI_Neighbor_alltoall", OTF2_REGION_ROLE_COLL_OTHER},
      {"MPI_File_open", OTF2_REGION_ROLE_FILE_IO},
      {"MPI_Put", OTF2_REGION_ROLE_RMA},
      {"MPI_Init", OTF2_REGION_ROLE_FUNCTION},
      {"MPI_Comm_split", OTF2_REGION_ROLE_FUNCTION},
      {"MPI_Get_count", OTF2_REGION_ROLE_FUNCTION},
  };
  for (const auto& [name, role] : expected) {
    const RegionInfo* f = find_function(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_EQ(f->role, role) << name;
  }
}

TEST(FunctionTable, ExcludesTimersAndHandleConversions) {
  EXPECT_EQ(find_function("MPI_Wtime"), nullptr);
  EXPECT_EQ(find_function("MPI_Comm_f2c"), nullptr);
  EXPECT_NE(find_function("MPI_Init_thread"), nullptr);
  EXPECT_NE(find_function("MPI_Finalize"), nullptr);
  EXPECT_NE(find_function("MPI_Pcontrol"), nullptr);
}

}  // namespace
}  // namespace collwrap::tracer
