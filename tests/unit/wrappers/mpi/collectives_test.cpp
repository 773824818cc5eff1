// Collectives: byte rules, MPI_IN_PLACE, arguments significant only at the root,
// intercommunicator roots, neighborhoods, and the records of blocking and nonblocking calls.
#include "mpi/collectives.h"

#include <gtest/gtest.h>

#include "mpi/transfer_bytes.h"
#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;
using Kind = testing::Record::Kind;

// A datatype handle the handlers must never ask about (it stands for the garbage a non-root
// may pass for arguments MPI ignores on it).
const MPI_Datatype kIgnoredType = fake_handle<MPI_Datatype>(666);

class Collectives : public ::testing::Test, public testing::SemanticsFixture {
 protected:
  void expect_ignored_type_untouched() { EXPECT_FALSE(mpi.queried_types.contains(kIgnoredType)); }
};

// --- Pure rules -------------------------------------------------------------------------------

TEST(TransferBytes, BlockAndSums) {
  EXPECT_EQ(block_bytes(3, 8), 24u);
  EXPECT_EQ(block_bytes(0, 8), 0u);
  EXPECT_EQ(block_bytes(-1, 8), 0u);
  const int counts[] = {1, 2, 3};
  EXPECT_EQ(sum_bytes(counts, 4), 24u);
  const std::uint64_t sizes[] = {1, 4, 8};
  EXPECT_EQ(sum_bytes(counts, sizes), 1u + 8u + 24u);
  EXPECT_EQ(sum_bytes(counts, 4, std::vector<bool>{true, false, true}), 16u);
}

TEST(TransferBytes, RootedRulesBalanceOverAllRanks) {
  constexpr int n = 5;
  constexpr std::uint64_t block = 12;
  std::uint64_t sent = 0, received = 0;
  for (int rank = 0; rank < n; ++rank) {
    const Participation p{n, rank == 2, true};
    const Transfer bcast = one_to_all(p, p.peers * block, block);
    const Transfer gather = all_to_one(p, block, p.peers * block);
    sent += bcast.sent + gather.sent;
    received += bcast.received + gather.received;
  }
  EXPECT_EQ(sent, received);
  EXPECT_EQ(sent, 2u * n * block);
}

TEST(TransferBytes, ScanAndExscanBalanceOverAllRanks) {
  constexpr int n = 4;
  std::uint64_t sent = 0, received = 0;
  for (int rank = 0; rank < n; ++rank) {
    sent += scan_bytes(n, rank, 8).sent + exscan_bytes(n, rank, 8).sent;
    received += scan_bytes(n, rank, 8).received + exscan_bytes(n, rank, 8).received;
  }
  EXPECT_EQ(sent, received);
  EXPECT_EQ(scan_bytes(n, 0, 8), (Transfer{32, 8}));
  EXPECT_EQ(exscan_bytes(n, 0, 8), (Transfer{24, 0}));
  EXPECT_EQ(exscan_bytes(n, 3, 8), (Transfer{0, 24}));
}

// --- Rooted collectives (world: 4 ranks, this process is rank 1) --------------------------------

TEST_F(Collectives, BcastRootSendsToAllLeafReceivesOneBlock) {
  EXPECT_EQ(describe_bcast(tracing(), 3, MPI_INT, 1, MPI_COMM_WORLD).bytes, (Transfer{48, 12}));
  const CollectiveCall leaf = describe_bcast(tracing(), 3, MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(leaf.bytes, (Transfer{0, 12}));
  EXPECT_EQ(leaf.root, 0u);
  EXPECT_EQ(leaf.op, CollectiveOp::Bcast);
}

TEST_F(Collectives, GatherReadsReceiveArgumentsOnlyAtTheRoot) {
  const CollectiveCall leaf =
      describe_gather(tracing(), nullptr, 2, MPI_DOUBLE, 99, kIgnoredType, 0, MPI_COMM_WORLD);
  EXPECT_EQ(leaf.bytes, (Transfer{16, 0}));
  expect_ignored_type_untouched();
  const CollectiveCall root =
      describe_gather(tracing(), nullptr, 2, MPI_DOUBLE, 2, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  EXPECT_EQ(root.bytes, (Transfer{16, 64}));
}

TEST_F(Collectives, GatherInPlaceAtTheRootContributesItsReceiveBlock) {
  const CollectiveCall root =
      describe_gather(tracing(), MPI_IN_PLACE, 0, kIgnoredType, 2, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  EXPECT_EQ(root.bytes, (Transfer{16, 64}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, GathervSumsTheRootsCountsAndInPlaceUsesItsOwnCount) {
  const int counts[] = {1, 2, 3, 4};
  const CollectiveCall root = describe_gatherv(tracing(), MPI_IN_PLACE, 0, kIgnoredType, counts,
                                               MPI_INT, 1, MPI_COMM_WORLD);
  EXPECT_EQ(root.bytes, (Transfer{8, 40}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, ScatterReadsSendArgumentsOnlyAtTheRoot) {
  const CollectiveCall leaf =
      describe_scatter(tracing(), 99, kIgnoredType, nullptr, 3, MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(leaf.bytes, (Transfer{0, 12}));
  expect_ignored_type_untouched();
  const CollectiveCall root =
      describe_scatter(tracing(), 3, MPI_INT, MPI_IN_PLACE, 0, kIgnoredType, 1, MPI_COMM_WORLD);
  EXPECT_EQ(root.bytes, (Transfer{48, 12}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, ScattervSumsTheRootsCounts) {
  const int counts[] = {4, 3, 2, 1};
  const CollectiveCall root = describe_scatterv(tracing(), counts, MPI_CHAR, MPI_IN_PLACE, 0,
                                                kIgnoredType, 1, MPI_COMM_WORLD);
  EXPECT_EQ(root.bytes, (Transfer{10, 3}));
  const CollectiveCall leaf =
      describe_scatterv(tracing(), nullptr, kIgnoredType, nullptr, 2, MPI_CHAR, 3, MPI_COMM_WORLD);
  EXPECT_EQ(leaf.bytes, (Transfer{0, 2}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, ReduceRootReceivesEveryContribution) {
  EXPECT_EQ(describe_reduce(tracing(), 2, MPI_INT, 1, MPI_COMM_WORLD).bytes, (Transfer{8, 32}));
  EXPECT_EQ(describe_reduce(tracing(), 2, MPI_INT, 0, MPI_COMM_WORLD).bytes, (Transfer{8, 0}));
}

// --- N-to-N ----------------------------------------------------------------------------------

TEST_F(Collectives, AllgatherAndAlltoallInPlaceTakeTheReceiveBlock) {
  EXPECT_EQ(describe_allgather(tracing(), MPI_IN_PLACE, 0, kIgnoredType, 2, MPI_INT, MPI_COMM_WORLD)
                .bytes,
            (Transfer{32, 32}));
  EXPECT_EQ(
      describe_alltoall(tracing(), nullptr, 1, MPI_DOUBLE, 1, MPI_DOUBLE, MPI_COMM_WORLD).bytes,
      (Transfer{32, 32}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, AllgathervInPlaceSendsItsOwnBlockToEveryone) {
  const int counts[] = {1, 5, 1, 1};
  EXPECT_EQ(describe_allgatherv(tracing(), MPI_IN_PLACE, 0, kIgnoredType, counts, MPI_CHAR,
                                MPI_COMM_WORLD)
                .bytes,
            (Transfer{20, 8}));
}

TEST_F(Collectives, AlltoallvAndAlltoallwSumPerPeer) {
  const int send[] = {1, 0, 2, 0}, recv[] = {0, 3, 0, 1};
  EXPECT_EQ(
      describe_alltoallv(tracing(), nullptr, send, MPI_INT, recv, MPI_DOUBLE, MPI_COMM_WORLD).bytes,
      (Transfer{12, 32}));
  // Types of zero counts may be MPI_DATATYPE_NULL (or anything): not looked at.
  const MPI_Datatype stypes[] = {MPI_INT, kIgnoredType, MPI_DOUBLE, kIgnoredType};
  const MPI_Datatype rtypes[] = {kIgnoredType, MPI_CHAR, kIgnoredType, MPI_INT};
  EXPECT_EQ(
      describe_alltoallw(tracing(), nullptr, send, stypes, recv, rtypes, MPI_COMM_WORLD).bytes,
      (Transfer{20, 7}));
  EXPECT_EQ(
      describe_alltoallw(tracing(), MPI_IN_PLACE, nullptr, nullptr, recv, rtypes, MPI_COMM_WORLD)
          .bytes,
      (Transfer{7, 7}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, ReductionsToAll) {
  EXPECT_EQ(describe_allreduce(tracing(), 2, MPI_DOUBLE, MPI_COMM_WORLD).bytes, (Transfer{64, 64}));
  const int counts[] = {1, 2, 3, 4};
  EXPECT_EQ(describe_reduce_scatter(tracing(), counts, MPI_INT, MPI_COMM_WORLD).bytes,
            (Transfer{40, 32}));
  EXPECT_EQ(describe_reduce_scatter_block(tracing(), 2, MPI_INT, MPI_COMM_WORLD).bytes,
            (Transfer{32, 32}));
  EXPECT_EQ(describe_scan(tracing(), 1, MPI_INT, MPI_COMM_WORLD).bytes, (Transfer{12, 8}));
  EXPECT_EQ(describe_exscan(tracing(), 1, MPI_INT, MPI_COMM_WORLD).bytes, (Transfer{8, 4}));
}

// --- Intercommunicators and neighborhoods --------------------------------------------------------

TEST_F(Collectives, IntercommunicatorRootsUseMpiRootAndProcNull) {
  const MPI_Comm inter = fake_handle<MPI_Comm>(3);
  CommFacts facts;
  facts.inter = true;
  facts.size = 2;
  facts.rank = 0;
  facts.remote_size = 3;
  facts.world_ranks = {1, 3, 0, 2, 4};
  facts.remote_index = {2, 3, 4};
  mpi.comms[inter] = facts;

  const CollectiveCall root = describe_bcast(tracing(), 1, MPI_INT, MPI_ROOT, inter);
  EXPECT_EQ(root.root, kRootSelf);
  EXPECT_EQ(root.bytes, (Transfer{12, 0}));  // to the 3 remote processes
  const CollectiveCall idle = describe_bcast(tracing(), 1, kIgnoredType, MPI_PROC_NULL, inter);
  EXPECT_EQ(idle.root, kUndefinedRank);
  EXPECT_EQ(idle.bytes, (Transfer{0, 0}));
  const CollectiveCall leaf = describe_bcast(tracing(), 1, MPI_INT, 1, inter);
  EXPECT_EQ(leaf.root, 3u);  // remote rank 1
  EXPECT_EQ(leaf.bytes, (Transfer{0, 4}));
  expect_ignored_type_untouched();
}

TEST_F(Collectives, NeighborhoodSkipsProcNullSlotsOfACartesianGrid) {
  // 1-D non-periodic grid, this process at the left edge: left neighbor MPI_PROC_NULL.
  const MPI_Comm cart = fake_handle<MPI_Comm>(4);
  CommFacts facts = testing::intra_facts({0, 1, 2, 3}, 0);
  facts.in_neighbors = {false, true};
  facts.out_neighbors = {false, true};
  mpi.comms[cart] = facts;
  const CollectiveCall call = describe_neighbor_alltoall(tracing(), 2, MPI_INT, 2, MPI_INT, cart);
  EXPECT_EQ(call.op, CollectiveOp::Alltoall);
  EXPECT_EQ(call.bytes, (Transfer{8, 8}));
  const int counts[] = {5, 1};
  EXPECT_EQ(describe_neighbor_alltoallv(tracing(), counts, MPI_INT, counts, MPI_CHAR, cart).bytes,
            (Transfer{4, 1}));
  const MPI_Datatype types[] = {kIgnoredType, MPI_DOUBLE};
  EXPECT_EQ(describe_neighbor_alltoallw(tracing(), counts, types, counts, types, cart).bytes,
            (Transfer{8, 8}));
  EXPECT_EQ(describe_neighbor_allgather(tracing(), 1, MPI_INT, 1, MPI_INT, cart).bytes,
            (Transfer{4, 4}));
  expect_ignored_type_untouched();
}

// --- Records -----------------------------------------------------------------------------------

TEST_F(Collectives, BlockingCollectiveWritesBeginAndEnd) {
  const CollectiveCall call = describe_allreduce(tracing(), 1, MPI_INT, MPI_COMM_WORLD);
  handle_collective_begin(tracing(), call);
  handle_collective_end(tracing(), call);
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].kind, Kind::CollectiveBegin);
  EXPECT_EQ(records()[1].kind, Kind::CollectiveEnd);
  EXPECT_EQ(records()[1].op, CollectiveOp::Allreduce);
  EXPECT_EQ(records()[1].peer, kUndefinedRank);
  EXPECT_EQ(records()[1].bytes, 16u);
  EXPECT_EQ(records()[1].comm, world().ref);
}

TEST_F(Collectives, UnknownCommunicatorWritesNeitherBeginNorEnd) {
  const CollectiveCall none = describe_barrier(tracing(), MPI_COMM_NULL);
  handle_collective_begin(tracing(), none);
  handle_collective_end(tracing(), none);
  EXPECT_TRUE(records().empty());
}

TEST_F(Collectives, NonblockingPostTracksTheCallForItsCompletion) {
  MPI_Request req = fake_handle<MPI_Request>(1);
  handle_nbc_post(tracing(), MPI_SUCCESS, describe_reduce(tracing(), 4, MPI_INT, 1, MPI_COMM_WORLD),
                  &req);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].kind, Kind::NbcRequest);
  const auto tracked = sem.requests.find(req);
  ASSERT_TRUE(tracked);
  EXPECT_EQ(tracked->kind, RequestKind::Collective);
  EXPECT_EQ(tracked->op, CollectiveOp::Reduce);
  EXPECT_EQ(tracked->peer, 1u);
  EXPECT_EQ(tracked->bytes, 16u);
  EXPECT_EQ(tracked->received, 64u);
  EXPECT_EQ(tracked->id, records()[0].request);
}

}  // namespace
}  // namespace collwrap::tracer
