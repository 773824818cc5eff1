// Point-to-point handlers: peers, tags, bytes, wildcards, MPI_PROC_NULL, matched probes.
#include "mpi/point_to_point.h"

#include <gtest/gtest.h>

#include "mpi/status_slot.h"
#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;
using testing::make_status;
using Kind = testing::Record::Kind;

class PointToPoint : public ::testing::Test, public testing::SemanticsFixture {};

TEST_F(PointToPoint, SendRecordsPeerTagAndTypeSizeTimesCount) {
  handle_send(tracing(), 5, MPI_DOUBLE, 3, 17, MPI_COMM_WORLD);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].kind, Kind::Send);
  EXPECT_EQ(records()[0].peer, 3u);
  EXPECT_EQ(records()[0].tag, 17u);
  EXPECT_EQ(records()[0].bytes, 40u);
  EXPECT_EQ(records()[0].comm, world().ref);
}

TEST_F(PointToPoint, ZeroCountSendDoesNotAskForTheTypeSize) {
  handle_send(tracing(), 0, MPI_DATATYPE_NULL, 2, 0, MPI_COMM_WORLD);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].bytes, 0u);
  EXPECT_FALSE(mpi.queried_types.contains(MPI_DATATYPE_NULL));
}

TEST_F(PointToPoint, SendWithAFreedAndReusedTypeHandleUsesTheNewSize) {
  const MPI_Datatype type = fake_handle<MPI_Datatype>(1);
  mpi.type_sizes[type] = 16;
  handle_send(tracing(), 2, type, 1, 0, MPI_COMM_WORLD);
  handle_type_freed(sem);  // MPI_Type_free, then a new type under the same handle
  mpi.type_sizes[type] = 32;
  handle_send(tracing(), 2, type, 1, 0, MPI_COMM_WORLD);
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].bytes, 32u);
  EXPECT_EQ(records()[1].bytes, 64u);
}

TEST_F(PointToPoint, ProcNullMakesNoRecordAndNoRequest) {
  handle_send(tracing(), 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Request req = fake_handle<MPI_Request>(1);
  handle_isend(tracing(), MPI_SUCCESS, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req);
  handle_irecv(tracing(), MPI_SUCCESS, MPI_PROC_NULL, MPI_COMM_WORLD, &req);
  handle_send_init(tracing(), MPI_SUCCESS, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req);
  const MPI_Status from_null = make_status(MPI_PROC_NULL, MPI_ANY_TAG, 0);
  handle_recv(tracing(), MPI_SUCCESS, MPI_COMM_WORLD, &from_null);
  EXPECT_TRUE(records().empty());
  EXPECT_EQ(sem.requests.size(), 0u);
}

TEST_F(PointToPoint, RecvRecordsTheActualSourceTagAndSize) {
  // Posted with MPI_ANY_SOURCE / MPI_ANY_TAG; the status says who sent what.
  const MPI_Status status = make_status(2, 99, 12);
  handle_recv(tracing(), MPI_SUCCESS, MPI_COMM_WORLD, &status);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].kind, Kind::Recv);
  EXPECT_EQ(records()[0].peer, 2u);
  EXPECT_EQ(records()[0].tag, 99u);
  EXPECT_EQ(records()[0].bytes, 12u);
}

TEST_F(PointToPoint, FailedCallsRecordNothing) {
  const MPI_Status status = make_status(2, 99, 12);
  handle_recv(tracing(), MPI_ERR_TRUNCATE, MPI_COMM_WORLD, &status);
  MPI_Request req = fake_handle<MPI_Request>(1);
  handle_isend(tracing(), MPI_ERR_RANK, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req);
  EXPECT_TRUE(records().empty());
  EXPECT_EQ(sem.requests.size(), 0u);
}

TEST_F(PointToPoint, StatusSlotSubstitutesIgnoredStatus) {
  StatusSlot ignored(MPI_STATUS_IGNORE);
  EXPECT_NE(ignored.get(), MPI_STATUS_IGNORE);
  MPI_Status mine;
  StatusSlot given(&mine);
  EXPECT_EQ(given.get(), &mine);
}

TEST_F(PointToPoint, IsendAndIrecvTrackTheirRequests) {
  MPI_Request send = fake_handle<MPI_Request>(1), recv = fake_handle<MPI_Request>(2);
  handle_isend(tracing(), MPI_SUCCESS, 2, MPI_INT, 0, 4, MPI_COMM_WORLD, &send);
  handle_irecv(tracing(), MPI_SUCCESS, MPI_ANY_SOURCE, MPI_COMM_WORLD, &recv);
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].kind, Kind::Isend);
  EXPECT_EQ(records()[0].bytes, 8u);
  EXPECT_EQ(records()[1].kind, Kind::IrecvRequest);
  EXPECT_NE(records()[0].request, records()[1].request);
  EXPECT_EQ(sem.requests.find(send)->id, records()[0].request);
  EXPECT_EQ(sem.requests.find(recv)->kind, RequestKind::Recv);
}

TEST_F(PointToPoint, IntercommunicatorPeersAreIndicesIntoTheDefinitionGroup) {
  // Local group {world 1, world 3}, remote group {world 0, world 2}: the definition lists the
  // local group first, so remote rank r is index 2 + r.
  const MPI_Comm inter = fake_handle<MPI_Comm>(7);
  CommFacts facts;
  facts.inter = true;
  facts.size = 2;
  facts.rank = 0;
  facts.remote_size = 2;
  facts.world_ranks = {1, 3, 0, 2};
  facts.remote_index = {2, 3};
  mpi.comms[inter] = facts;
  handle_send(tracing(), 1, MPI_INT, 1, 0, inter);
  const MPI_Status status = make_status(0, 5, 4);
  handle_recv(tracing(), MPI_SUCCESS, inter, &status);
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].peer, 3u);
  EXPECT_EQ(records()[1].peer, 2u);
  const CommEntry* entry = sem.comms.find(inter);
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->world_ranks[records()[0].peer], 2);  // remote rank 1 is world rank 2
  EXPECT_EQ(entry->peer_index(2), kUndefinedRank);      // no remote rank 2
}

TEST_F(PointToPoint, MatchedProbeGivesMrecvItsCommunicator) {
  const MPI_Comm sub = fake_handle<MPI_Comm>(8);
  mpi.comms[sub] = testing::intra_facts({1, 2}, 0);
  MPI_Message message = fake_handle<MPI_Message>(1);
  handle_matched_probe(tracing(), MPI_SUCCESS, sub, nullptr, &message);

  const CommEntry* comm = take_matched_message(tracing(), &message);
  ASSERT_TRUE(comm);
  EXPECT_EQ(comm, sem.comms.find(sub));
  EXPECT_FALSE(take_matched_message(tracing(), &message));  // taken once

  const MPI_Status status = make_status(1, 3, 8);
  handle_mrecv(tracing(), MPI_SUCCESS, comm, &status);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].kind, Kind::Recv);
  EXPECT_EQ(records()[0].comm, comm->ref);
  EXPECT_EQ(records()[0].peer, 1u);
}

TEST_F(PointToPoint, UnsuccessfulImprobeAndNoProcMessagesAreNotRemembered) {
  MPI_Message message = fake_handle<MPI_Message>(1);
  const int no_match = 0;
  handle_matched_probe(tracing(), MPI_SUCCESS, MPI_COMM_WORLD, &no_match, &message);
  EXPECT_FALSE(take_matched_message(tracing(), &message));

  MPI_Message no_proc = MPI_MESSAGE_NO_PROC;
  handle_matched_probe(tracing(), MPI_SUCCESS, MPI_COMM_WORLD, nullptr, &no_proc);
  EXPECT_FALSE(take_matched_message(tracing(), &no_proc));
}

TEST_F(PointToPoint, ImrecvPostsAReceiveOnTheProbedCommunicator) {
  MPI_Message message = fake_handle<MPI_Message>(2);
  const int matched = 1;
  handle_matched_probe(tracing(), MPI_SUCCESS, MPI_COMM_WORLD, &matched, &message);
  MPI_Request req = fake_handle<MPI_Request>(3);
  handle_imrecv(tracing(), MPI_SUCCESS, take_matched_message(tracing(), &message), &req);
  ASSERT_EQ(records().size(), 1u);
  EXPECT_EQ(records()[0].kind, Kind::IrecvRequest);
  ASSERT_TRUE(sem.requests.find(req));
  EXPECT_EQ(sem.requests.find(req)->comm, &world());
}

}  // namespace
}  // namespace collwrap::tracer
