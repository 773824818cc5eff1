// PmpiQueries against the real MPI library, as a singleton process (MPI_Init without mpirun):
// rank translation, type sizes, status queries, key agreement and topology neighbors.
#include "mpi/pmpi_queries.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "mpi/fortran_args.h"

namespace collwrap::tracer {
namespace {

// Frees a communicator at the end of a test.
struct OwnedComm {
  ~OwnedComm() {
    if (comm != MPI_COMM_NULL) PMPI_Comm_free(&comm);
  }
  MPI_Comm comm = MPI_COMM_NULL;
};

TEST(PmpiQueries, WorldIsOneProcessTranslatedToItself) {
  PmpiQueries mpi;
  EXPECT_EQ(mpi.world_rank(), 0);
  const CommFacts world = mpi.describe(MPI_COMM_WORLD);
  EXPECT_FALSE(world.inter);
  EXPECT_EQ(world.size, 1);
  EXPECT_EQ(world.rank, 0);
  EXPECT_EQ(world.world_ranks, (std::vector<std::int32_t>{0}));
  EXPECT_TRUE(world.in_neighbors.empty());
}

TEST(PmpiQueries, TypeSizes) {
  PmpiQueries mpi;
  EXPECT_EQ(mpi.type_size(MPI_INT), sizeof(int));
  EXPECT_EQ(mpi.type_size(MPI_DATATYPE_NULL), 0u);
  MPI_Datatype triple;
  PMPI_Type_contiguous(3, MPI_DOUBLE, &triple);
  PMPI_Type_commit(&triple);
  EXPECT_EQ(mpi.type_size(triple), 3 * sizeof(double));
  PMPI_Type_free(&triple);
}

TEST(PmpiQueries, ReceivedBytesAndCancellationComeFromTheStatus) {
  PmpiQueries mpi;
  int out[5] = {1, 2, 3, 4, 5}, in[8];
  MPI_Status status;
  PMPI_Sendrecv(out, 5, MPI_INT, 0, 3, in, 8, MPI_INT, 0, 3, MPI_COMM_SELF, &status);
  EXPECT_EQ(mpi.received_bytes(status), 5 * sizeof(int));
  EXPECT_FALSE(mpi.cancelled(status));

  MPI_Request req;
  PMPI_Irecv(in, 1, MPI_INT, 0, 77, MPI_COMM_SELF, &req);
  PMPI_Cancel(&req);
  PMPI_Wait(&req, &status);
  EXPECT_TRUE(mpi.cancelled(status));
}

TEST(PmpiQueries, NewCommunicatorGetsItsRankZerosKey) {
  PmpiQueries mpi;
  OwnedComm dup;
  PMPI_Comm_dup(MPI_COMM_WORLD, &dup.comm);
  const AgreedComm agreed = mpi.describe_new(dup.comm, 0x12345);
  EXPECT_EQ(agreed.key, 0x12345u);  // this process is rank 0
  EXPECT_EQ(agreed.facts.world_ranks, (std::vector<std::int32_t>{0}));
}

TEST(PmpiQueries, CartesianNeighborsOutsideANonPeriodicGridAreNotReal) {
  PmpiQueries mpi;
  const int dims[2] = {1, 1}, periods[2] = {0, 1};
  OwnedComm cart;
  PMPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart.comm);
  const CommFacts facts = mpi.describe(cart.comm);
  EXPECT_EQ(facts.in_neighbors, (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(facts.out_neighbors, facts.in_neighbors);
  EXPECT_EQ(facts.topology.kind, GroupTopology::Kind::Cartesian);
  EXPECT_EQ(facts.topology.dims, (std::vector<std::uint32_t>{1, 1}));
  EXPECT_EQ(facts.topology.periodic, (std::vector<std::uint8_t>{0, 1}));
  EXPECT_EQ(facts.topology.coords, (std::vector<std::uint32_t>{0, 0}));
}

TEST(PmpiQueries, DistributedGraphNeighborsAreCounted) {
  PmpiQueries mpi;
  const int self[1] = {0};
  OwnedComm graph;
  PMPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, self, MPI_UNWEIGHTED, 1, self, MPI_UNWEIGHTED,
                                  MPI_INFO_NULL, 0, &graph.comm);
  const CommFacts facts = mpi.describe(graph.comm);
  EXPECT_EQ(facts.in_neighbors, (std::vector<bool>{true}));
  EXPECT_EQ(facts.out_neighbors, (std::vector<bool>{true}));
  EXPECT_EQ(facts.topology.kind, GroupTopology::Kind::Graph);
  EXPECT_EQ(facts.topology.in_neighbors, (std::vector<std::int32_t>{0}));
  EXPECT_EQ(facts.topology.out_neighbors, (std::vector<std::int32_t>{0}));
}

// The Fortran wrappers' status handling (fortran_args.h) against the library's conversions.
TEST(FortranStatuses, CallersArrayIsPassedOnAndReadBack) {
  MPI_Status c_status;
  int out = 1, in = 0;
  PMPI_Sendrecv(&out, 1, MPI_INT, 0, 9, &in, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &c_status);
  MPI_Fint caller[2 * kFortranStatusSize] = {};
  FortranStatuses statuses(caller, 2);
  EXPECT_EQ(statuses.fortran(), caller);
  PMPI_Status_c2f(&c_status, caller + kFortranStatusSize);  // what MPI writes
  statuses.refresh();
  EXPECT_EQ(statuses.c()[1].MPI_SOURCE, 0);
  EXPECT_EQ(statuses.c()[1].MPI_TAG, 9);
  int count = 0;
  PMPI_Get_count(&statuses.c()[1], MPI_INT, &count);
  EXPECT_EQ(count, 1);
}

TEST(FortranStatuses, IgnoredStatusesAreReplacedAndNeverWritten) {
  // The sentinel the Fortran bindings pass for MPI_STATUS_IGNORE (a common block of libmpi).
  void* ignore = dlsym(RTLD_DEFAULT, "mpi_fortran_status_ignore_");
  if (!ignore) GTEST_SKIP() << "this MPI has no mpi_fortran_status_ignore_";
  EXPECT_TRUE(is_fortran_status_ignore(ignore));
  FortranStatuses statuses(ignore, 1);
  ASSERT_NE(statuses.fortran(), ignore);
  MPI_Status c_status;
  int out = 1, in = 0;
  PMPI_Sendrecv(&out, 1, MPI_INT, 0, 4, &in, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &c_status);
  PMPI_Status_c2f(&c_status, static_cast<MPI_Fint*>(statuses.fortran()));
  statuses.refresh();
  EXPECT_EQ(statuses.c()[0].MPI_TAG, 4);
  void* in_place = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
  if (in_place) {
    EXPECT_EQ(c_buffer(in_place), MPI_IN_PLACE);
  }
}

TEST(FortranHandles, RequestsConvertToTheCHandles) {
  int in = 0;
  MPI_Request req;
  PMPI_Irecv(&in, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &req);
  const MPI_Fint fortran[2] = {PMPI_Request_c2f(req), PMPI_Request_c2f(MPI_REQUEST_NULL)};
  FortranRequests requests(fortran, 2);
  ASSERT_NE(requests.get(), nullptr);
  EXPECT_EQ(requests.get()[0], req);
  EXPECT_EQ(requests.get()[1], MPI_REQUEST_NULL);
  PMPI_Cancel(&req);
  PMPI_Wait(&req, MPI_STATUS_IGNORE);
}

}  // namespace
}  // namespace collwrap::tracer

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  PMPI_Init(&argc, &argv);
  const int failed = RUN_ALL_TESTS();
  PMPI_Finalize();
  return failed;
}
