// CommRegistry and the communicator handlers: keys, names, membership in world ranks, handle
// reuse, and which communicators are registered collectively or locally.
#include "mpi/comm_registry.h"

#include <gtest/gtest.h>

#include <thread>

#include "mpi/comms.h"
#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;
using testing::intra_facts;

const GroupInfo* find_info(const std::vector<GroupInfo>& infos, CommRef ref) {
  for (const GroupInfo& info : infos) {
    if (info.id == ref) return &info;
  }
  return nullptr;
}

TEST(CommKey, IsWorldRankAboveCounter) {
  EXPECT_EQ(make_comm_key(0, 0), 0u);
  EXPECT_EQ(make_comm_key(3, 5), (std::uint64_t{3} << 32) | 5);
  EXPECT_EQ(make_comm_key(0x7fffffff, 0xffffffff) & kLocalCommKey, 0u);
}

TEST(CommRegistry, AddFindForgetAndSnapshotNames) {
  CommRegistry registry;
  const MPI_Comm a = fake_handle<MPI_Comm>(1), b = fake_handle<MPI_Comm>(2);
  const CommEntry& first = registry.add(a, intra_facts({0, 2}, 1), 0x100000002, "");
  const CommEntry& second = registry.add(b, intra_facts({4}, 0), 7, "halo");
  EXPECT_EQ(first.ref, 0u);
  EXPECT_EQ(second.ref, 1u);
  EXPECT_EQ(registry.find(a), &first);
  EXPECT_EQ(registry.find(fake_handle<MPI_Comm>(3)), nullptr);

  EXPECT_TRUE(registry.rename(a, "rows"));
  EXPECT_FALSE(registry.rename(fake_handle<MPI_Comm>(3), "x"));
  registry.forget(b);
  EXPECT_EQ(registry.find(b), nullptr);

  const std::vector<GroupInfo> infos = registry.snapshot();
  ASSERT_EQ(infos.size(), 2u);  // a freed communicator keeps its definition
  EXPECT_EQ(find_info(infos, 0)->name, "rows");
  EXPECT_EQ(find_info(infos, 0)->key, 0x100000002u);
  EXPECT_EQ(find_info(infos, 0)->members, (std::vector<std::int32_t>{0, 2}));
  EXPECT_EQ(find_info(infos, 1)->name, "halo");
}

TEST(CommRegistry, UnnamedCommunicatorIsNamedByItsKey) {
  CommRegistry registry;
  registry.add(fake_handle<MPI_Comm>(1), intra_facts({0}, 0), 0x300000005);
  EXPECT_EQ(registry.snapshot()[0].name, "comm 0x300000005");
}

TEST(CommRegistry, ReusedHandleMapsToTheNewCommunicator) {
  CommRegistry registry;
  const MPI_Comm h = fake_handle<MPI_Comm>(1);
  const CommEntry& old_entry = registry.add(h, intra_facts({0, 1}, 0), 1);
  EXPECT_EQ(registry.find(h), &old_entry);  // now cached by this thread
  registry.forget(h);
  EXPECT_EQ(registry.find(h), nullptr);  // the cache must not outlive the mapping
  const CommEntry& new_entry = registry.add(h, intra_facts({2, 3}, 1), 2);
  EXPECT_EQ(registry.find(h), &new_entry);
  EXPECT_NE(old_entry.ref, new_entry.ref);
  EXPECT_EQ(registry.snapshot().size(), 2u);
}

TEST(CommRegistry, LookupsSeeRegistrationsFromOtherThreads) {
  CommRegistry registry;
  const MPI_Comm h = fake_handle<MPI_Comm>(1);
  registry.add(h, intra_facts({0}, 0), 1);
  EXPECT_NE(registry.find(h), nullptr);
  std::thread([&] {
    registry.forget(h);
    registry.add(h, intra_facts({1}, 0), 2);
  }).join();
  ASSERT_NE(registry.find(h), nullptr);
  EXPECT_EQ(registry.find(h)->key, 2u);
}

TEST(CommRegistry, ThreadCacheDoesNotMixUpRegistries) {
  // Both registries make the same number of changes, so only generations unique across
  // registries keep the thread's cached lookup of one from answering for the other.
  CommRegistry first, second;
  const MPI_Comm h = fake_handle<MPI_Comm>(1);
  const CommEntry& in_first = first.add(h, intra_facts({0}, 0), 1);
  const CommEntry& in_second = second.add(h, intra_facts({1}, 0), 2);
  EXPECT_EQ(first.find(h), &in_first);
  EXPECT_EQ(second.find(h), &in_second);
  EXPECT_EQ(first.find(h), &in_first);
}

TEST(CommEntry, PeerIndexTranslatesRemoteRanksOfIntercommunicators) {
  CommEntry intra;
  static_cast<CommFacts&>(intra) = intra_facts({5, 6, 7}, 0);
  EXPECT_EQ(intra.peer_index(2), 2u);
  EXPECT_EQ(intra.peer_index(3), kUndefinedRank);
  EXPECT_EQ(intra.peer_index(-1), kUndefinedRank);

  CommEntry inter;
  inter.inter = true;
  inter.world_ranks = {0, 1, 2, 3};
  inter.remote_index = {0, 2};  // merged order interleaves the groups
  EXPECT_EQ(inter.peer_index(1), 2u);
  EXPECT_EQ(inter.peer_index(2), kUndefinedRank);
}

class CommHandlers : public ::testing::Test, public testing::SemanticsFixture {};

TEST_F(CommHandlers, WorldAndSelfAreRegisteredAtInit) {
  const std::vector<GroupInfo> infos = sem.comms.snapshot();
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[0].name, "MPI_COMM_WORLD");
  EXPECT_EQ(infos[0].key, make_comm_key(0, kWorldCounter));
  EXPECT_EQ(infos[0].members, (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(infos[1].name, "MPI_COMM_SELF");
  EXPECT_EQ(infos[1].key, make_comm_key(1, kSelfCounter));
  EXPECT_EQ(infos[1].members, (std::vector<std::int32_t>{1}));
  EXPECT_TRUE(sem.active());
}

TEST_F(CommHandlers, CreatedCommunicatorTakesTheAgreedKeyAndItsMembers) {
  const MPI_Comm sub = fake_handle<MPI_Comm>(1);
  mpi.comms[sub] = intra_facts({1, 3}, 0);
  handle_comm_created(sem, MPI_SUCCESS, &sub);
  ASSERT_EQ(mpi.proposals.size(), 1u);
  EXPECT_EQ(mpi.proposals[0] >> 32, 1u);  // this process's world rank proposes
  EXPECT_EQ(mpi.proposals[0] & kLocalCommKey, 0u);

  const MPI_Comm other = fake_handle<MPI_Comm>(2);
  mpi.comms[other] = intra_facts({0, 1}, 1);
  mpi.agreed_key = make_comm_key(0, 9);  // world rank 0 is rank 0 of this one
  handle_comm_created(sem, MPI_SUCCESS, &other);
  EXPECT_EQ(sem.comms.find(other)->key, make_comm_key(0, 9));
  EXPECT_EQ(sem.comms.find(sub)->world_ranks, (std::vector<std::int32_t>{1, 3}));
  EXPECT_NE(mpi.proposals[0], mpi.proposals[1]);  // a fresh counter per creation
}

TEST_F(CommHandlers, NothingIsRegisteredForCommNullFailuresOrAfterFinalize) {
  const MPI_Comm null = MPI_COMM_NULL;
  handle_comm_created(sem, MPI_SUCCESS, &null);  // e.g. MPI_Comm_split with MPI_UNDEFINED
  const MPI_Comm sub = fake_handle<MPI_Comm>(1);
  mpi.comms[sub] = intra_facts({1}, 0);
  handle_comm_created(sem, MPI_ERR_COMM, &sub);
  sem.stop();
  handle_comm_created(sem, MPI_SUCCESS, &sub);
  EXPECT_TRUE(mpi.proposals.empty());
  EXPECT_EQ(sem.comms.snapshot().size(), 2u);
}

TEST_F(CommHandlers, AttachedAndUnknownCommunicatorsAreRegisteredLocally) {
  const MPI_Comm parent = fake_handle<MPI_Comm>(1);
  CommFacts facts = intra_facts({1}, 0);
  facts.inter = true;
  facts.remote_size = 2;
  facts.world_ranks = {1, -1, -1};  // the other job's processes are not in our world
  facts.remote_index = {1, 2};
  mpi.comms[parent] = facts;
  handle_comm_attached(sem, MPI_SUCCESS, &parent);
  handle_comm_attached(sem, MPI_SUCCESS, &parent);  // MPI_Comm_get_parent twice: one entry
  EXPECT_TRUE(mpi.proposals.empty());               // no collective exchange
  ASSERT_NE(sem.comms.find(parent), nullptr);
  EXPECT_NE(sem.comms.find(parent)->key & kLocalCommKey, 0u);

  const MPI_Comm idup = fake_handle<MPI_Comm>(2);
  mpi.comms[idup] = intra_facts({0, 1, 2, 3}, 1);
  const CommEntry* entry = comm_entry(sem, idup);
  ASSERT_NE(entry, nullptr);
  EXPECT_NE(entry->key & kLocalCommKey, 0u);
  EXPECT_EQ(comm_entry(sem, idup), entry);
  EXPECT_EQ(comm_entry(sem, MPI_COMM_NULL), nullptr);
  EXPECT_EQ(sem.comms.snapshot().size(), 4u);
}

TEST_F(CommHandlers, FreeAndRename) {
  const MPI_Comm sub = fake_handle<MPI_Comm>(1);
  mpi.comms[sub] = intra_facts({1, 2}, 0);
  handle_comm_created(sem, MPI_SUCCESS, &sub);
  handle_comm_named(sem, MPI_SUCCESS, sub, "pairs");
  handle_comm_named(sem, MPI_SUCCESS, MPI_COMM_WORLD, "everyone");
  MPI_Comm freed = sub;
  handle_comm_freed(sem, &freed);
  EXPECT_EQ(sem.comms.find(sub), nullptr);
  const std::vector<GroupInfo> infos = sem.comms.snapshot();
  EXPECT_EQ(infos[0].name, "everyone");
  EXPECT_EQ(infos[2].name, "pairs");
}

}  // namespace
}  // namespace collwrap::tracer
