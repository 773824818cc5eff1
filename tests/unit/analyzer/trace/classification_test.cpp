// classify_region(), collective_family() and Trace::finish_indexes().
#include <gtest/gtest.h>

#include <ostream>

#include "trace_builder.h"
#include "trace_model.h"

namespace collwrap {
namespace {

struct Expected {
  const char* name;
  RegionClass cls;
  SendMode mode;
};

void PrintTo(const Expected& e, std::ostream* os) {
  *os << '"' << e.name << '"';
}

class Classification : public ::testing::TestWithParam<Expected> {};

TEST_P(Classification, NamesMapToClassAndSendMode) {
  const Expected& e = GetParam();
  const RegionInfo info = classify_region(e.name);
  EXPECT_EQ(info.name, e.name);
  EXPECT_EQ(info.cls, e.cls) << e.name;
  EXPECT_EQ(info.mode, e.mode) << e.name;
}

using RC = RegionClass;
using SM = SendMode;
INSTANTIATE_TEST_SUITE_P(
    MpiFunctions, Classification,
    ::testing::Values(Expected{"MPI_Init", RC::Init, SM::None},
                      Expected{"MPI_Init_thread", RC::Init, SM::None},
                      Expected{"MPI_Finalize", RC::Finalize, SM::None},
                      Expected{"MPI_Send", RC::BlockingSend, SM::Standard},
                      Expected{"MPI_Bsend", RC::BlockingSend, SM::Buffered},
                      Expected{"MPI_Ssend", RC::BlockingSend, SM::Synchronous},
                      Expected{"MPI_Rsend", RC::BlockingSend, SM::Ready},
                      Expected{"MPI_Recv", RC::BlockingRecv, SM::None},
                      Expected{"MPI_Mrecv", RC::BlockingRecv, SM::None},
                      Expected{"MPI_Sendrecv", RC::Sendrecv, SM::Standard},
                      Expected{"MPI_Sendrecv_replace", RC::Sendrecv, SM::Standard},
                      Expected{"MPI_Isend", RC::NonblockingP2P, SM::Standard},
                      Expected{"MPI_Issend", RC::NonblockingP2P, SM::Synchronous},
                      Expected{"MPI_Irsend", RC::NonblockingP2P, SM::Ready},
                      Expected{"MPI_Ibsend", RC::NonblockingP2P, SM::Buffered},
                      Expected{"MPI_Irecv", RC::NonblockingP2P, SM::None},
                      Expected{"MPI_Ssend_init", RC::NonblockingP2P, SM::Synchronous},
                      Expected{"MPI_Recv_init", RC::NonblockingP2P, SM::None},
                      Expected{"MPI_Startall", RC::NonblockingP2P, SM::None},
                      Expected{"MPI_Waitsome", RC::Wait, SM::None},
                      Expected{"MPI_Testany", RC::Test, SM::None},
                      Expected{"MPI_Improbe", RC::Probe, SM::None},
                      Expected{"MPI_Barrier", RC::Collective, SM::None},
                      Expected{"MPI_Reduce_scatter_block", RC::Collective, SM::None},
                      Expected{"MPI_Neighbor_alltoallw", RC::Collective, SM::None},
                      Expected{"MPI_Ibarrier", RC::NonblockingCollective, SM::None},
                      Expected{"MPI_Iexscan", RC::NonblockingCollective, SM::None},
                      Expected{"MPI_Comm_rank", RC::Other, SM::None},
                      Expected{"compute_step", RC::Other, SM::None},
                      Expected{"MPI_SEND", RC::BlockingSend, SM::Standard},  // Fortran spelling
                      Expected{"mpi_waitall", RC::Wait, SM::None},           // lower case
                      Expected{"MPI_", RC::Other, SM::None}, Expected{"", RC::Other, SM::None}));

TEST(CollectiveFamily, FollowsTheDependencyBetweenMembers) {
  EXPECT_EQ(collective_family(CollOp::Barrier), CollFamily::Barrier);
  for (CollOp op :
       {CollOp::Allreduce, CollOp::Allgatherv, CollOp::Alltoallw, CollOp::ReduceScatterBlock})
    EXPECT_EQ(collective_family(op), CollFamily::NxN);
  for (CollOp op : {CollOp::Bcast, CollOp::Scatterv})
    EXPECT_EQ(collective_family(op), CollFamily::OneToN);
  for (CollOp op : {CollOp::Reduce, CollOp::Gatherv})
    EXPECT_EQ(collective_family(op), CollFamily::NToOne);
  EXPECT_EQ(collective_family(CollOp::Exscan), CollFamily::Prefix);
  EXPECT_EQ(collective_family(CollOp::CreateHandle), CollFamily::Other);
}

TEST(TraceIndexes, MainLocationOfEachRank) {
  TraceBuilder b(3, 2);
  const Trace t = b.finish();
  ASSERT_EQ(t.rank_main_location.size(), 3u);
  for (std::uint32_t r = 0; r < 3; ++r) {
    const Location& l = t.locations[t.rank_main_location[r]];
    EXPECT_EQ(l.rank, static_cast<std::int32_t>(r));
    EXPECT_EQ(l.thread, 0);
  }
}

}  // namespace
}  // namespace collwrap
