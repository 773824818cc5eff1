#include "coll_collectives.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

namespace collwrap::bench {
namespace {

std::vector<std::string> names(const std::vector<const Collective*>& chosen) {
  std::vector<std::string> out;
  for (const Collective* c : chosen) out.push_back(c->name);
  return out;
}

TEST(CollCollectives, EveryBlockingCollectiveHasItsNonblockingTwin) {
  std::string unknown;
  const auto blocking = select_collectives("blocking", unknown);
  const auto nonblocking = select_collectives("nonblocking", unknown);
  ASSERT_EQ(blocking.size(), 17u);  // MPI 2.2's collectives
  ASSERT_EQ(nonblocking.size(), blocking.size());
  for (std::size_t i = 0; i < blocking.size(); ++i) {
    EXPECT_EQ(std::string("i") + blocking[i]->name, nonblocking[i]->name);
    // MPI_Bcast → MPI_Ibcast
    std::string twin = blocking[i]->mpi_name;
    twin[4] = char(std::tolower(twin[4]));
    twin.insert(twin.begin() + 4, 'I');
    EXPECT_EQ(nonblocking[i]->mpi_name, twin);
    EXPECT_EQ(blocking[i]->rooted, nonblocking[i]->rooted);
  }
  EXPECT_EQ(select_collectives("all", unknown).size(), 34u);
}

TEST(CollCollectives, CommaListKeepsItsOrderAndNamesAnUnknownEntry) {
  std::string unknown;
  EXPECT_EQ(names(select_collectives("reduce,ibcast,barrier", unknown)),
            (std::vector<std::string>{"reduce", "ibcast", "barrier"}));
  EXPECT_TRUE(select_collectives("bcast,bcst", unknown).empty());
  EXPECT_EQ(unknown, "bcst");
}

TEST(CollCollectives, OnlyTheBarriersMoveNoDataAndTheRootedOnesAreTheOneToAllAndAllToOne) {
  std::string unknown;
  for (const Collective* c : select_collectives("all", unknown)) {
    const std::string name = c->name;
    EXPECT_EQ(moves_data(*c), name != "barrier" && name != "ibarrier") << name;
    const std::string base = name[0] == 'i' ? name.substr(1) : name;
    const bool rooted = base == "bcast" || base == "gather" || base == "gatherv" ||
                        base == "scatter" || base == "scatterv" || base == "reduce";
    EXPECT_EQ(c->rooted, rooted) << name;
  }
}

}  // namespace
}  // namespace collwrap::bench
