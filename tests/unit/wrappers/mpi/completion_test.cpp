// CompletionScope: which completion records Wait/Test and their any/all/some forms write.
// Each test plays MPI's part by hand: it fills the statuses and nulls completed handles.
#include "mpi/completion.h"

#include <gtest/gtest.h>

#include "mpi/collectives.h"
#include "mpi/point_to_point.h"
#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;
using testing::make_status;
using testing::Record;
using Kind = Record::Kind;

class Completion : public ::testing::Test, public testing::SemanticsFixture {
 protected:
  // Posts an MPI_Isend of 3 ints to world rank 2 (tag 7) and returns its id.
  RequestId isend(MPI_Request h) {
    handle_isend(tracing(), MPI_SUCCESS, 3, MPI_INT, 2, 7, MPI_COMM_WORLD, &h);
    return records().back().request;
  }
  RequestId irecv(MPI_Request h, int source = MPI_ANY_SOURCE) {
    handle_irecv(tracing(), MPI_SUCCESS, source, MPI_COMM_WORLD, &h);
    return records().back().request;
  }
  RequestId ibcast(MPI_Request h) {
    handle_nbc_post(tracing(), MPI_SUCCESS,
                    describe_bcast(tracing(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD), &h);
    return records().back().request;
  }
  std::vector<Record> records_since(std::size_t first) {
    return {records().begin() + static_cast<std::ptrdiff_t>(first), records().end()};
  }
};

TEST_F(Completion, WaitallCompletesMixedSendRecvAndCollectiveWithStatusesIgnored) {
  MPI_Request reqs[4] = {fake_handle<MPI_Request>(1), fake_handle<MPI_Request>(2), MPI_REQUEST_NULL,
                         fake_handle<MPI_Request>(3)};
  const RequestId send = isend(reqs[0]);
  const RequestId recv = irecv(reqs[1]);
  const RequestId coll = ibcast(reqs[3]);
  const std::size_t before = records().size();

  CompletionScope done(tracing(), CompletionKind::Wait, 4, reqs, MPI_STATUSES_IGNORE, 4);
  ASSERT_NE(done.statuses(), MPI_STATUSES_IGNORE);  // the wrapper's own array goes to PMPI
  done.statuses()[0] = make_status(1, 7, 0);
  done.statuses()[1] = make_status(3, 42, 16);
  done.statuses()[3] = make_status(MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
  for (MPI_Request& r : reqs) r = MPI_REQUEST_NULL;
  done.after_waitall(MPI_SUCCESS);

  const auto got = records_since(before);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].kind, Kind::IsendComplete);
  EXPECT_EQ(got[0].request, send);
  EXPECT_EQ(got[1].kind, Kind::Irecv);
  EXPECT_EQ(got[1].request, recv);
  EXPECT_EQ(got[1].peer, 3u);  // the actual source, not MPI_ANY_SOURCE
  EXPECT_EQ(got[1].tag, 42u);
  EXPECT_EQ(got[1].bytes, 16u);
  EXPECT_EQ(got[1].comm, world().ref);
  EXPECT_EQ(got[2].kind, Kind::NbcComplete);
  EXPECT_EQ(got[2].request, coll);
  EXPECT_EQ(got[2].op, CollectiveOp::Bcast);
  EXPECT_EQ(got[2].peer, 0u);          // root
  EXPECT_EQ(got[2].received, 16u);     // 2 doubles
  EXPECT_EQ(sem.requests.size(), 0u);  // all forgotten
}

TEST_F(Completion, WaitallUsesTheCallersStatusesWhenGiven) {
  MPI_Request req = fake_handle<MPI_Request>(1);
  irecv(req);
  MPI_Status statuses[1];
  CompletionScope done(tracing(), CompletionKind::Wait, 1, &req, statuses, 1);
  EXPECT_EQ(done.statuses(), statuses);
  statuses[0] = make_status(2, 5, 4);
  done.after_waitall(MPI_SUCCESS);
  EXPECT_EQ(records().back().kind, Kind::Irecv);
  EXPECT_EQ(records().back().peer, 2u);
}

// The scope is built before the PMPI call, when the call's Leave time is not known yet; its
// records take the time the wrapper hands it afterwards.
TEST_F(Completion, RecordsTakeTheTimeTheCallReturned) {
  MPI_Request reqs[2] = {fake_handle<MPI_Request>(1), fake_handle<MPI_Request>(2)};
  isend(reqs[0]);
  irecv(reqs[1]);
  Tracing c = tracing();
  c.entered = 100;
  CompletionScope done(c, CompletionKind::Wait, 2, reqs, MPI_STATUSES_IGNORE, 2);
  done.statuses()[0] = make_status(1, 7, 0);
  done.statuses()[1] = make_status(2, 5, 4);
  done.set_left(250);
  done.after_waitall(MPI_SUCCESS);
  ASSERT_GE(records().size(), 2u);
  EXPECT_EQ(records()[records().size() - 2].kind, Kind::IsendComplete);
  EXPECT_EQ(records()[records().size() - 2].time, 250u);
  EXPECT_EQ(records().back().kind, Kind::Irecv);
  EXPECT_EQ(records().back().time, 250u);
}

TEST_F(Completion, WaitallWithErrorInStatusSkipsPendingRequests) {
  MPI_Request reqs[2] = {fake_handle<MPI_Request>(1), fake_handle<MPI_Request>(2)};
  const RequestId first = isend(reqs[0]);
  isend(reqs[1]);
  const std::size_t before = records().size();
  CompletionScope done(tracing(), CompletionKind::Wait, 2, reqs, MPI_STATUSES_IGNORE, 2);
  done.statuses()[0] = make_status(2, 7, 0);
  done.statuses()[1] = make_status(2, 7, 0);
  done.statuses()[1].MPI_ERROR = MPI_ERR_PENDING;
  done.after_waitall(MPI_ERR_IN_STATUS);
  const auto got = records_since(before);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].request, first);
  EXPECT_TRUE(sem.requests.find(reqs[1]));  // still pending
}

TEST_F(Completion, WaitsomeMapsStatusesToIndicesAndIgnoresUndefined) {
  MPI_Request reqs[3] = {fake_handle<MPI_Request>(1), fake_handle<MPI_Request>(2),
                         fake_handle<MPI_Request>(3)};
  irecv(reqs[0]);
  const RequestId second = isend(reqs[1]);
  const RequestId third = irecv(reqs[2]);
  const std::size_t before = records().size();

  {
    CompletionScope done(tracing(), CompletionKind::Wait, 3, reqs, MPI_STATUSES_IGNORE, 3);
    const int outcount = 2;
    const int indices[2] = {2, 1};  // completion order, not request order
    done.statuses()[0] = make_status(0, 9, 24);
    done.statuses()[1] = make_status(2, 7, 0);
    done.after_some(MPI_SUCCESS, &outcount, indices);
  }
  auto got = records_since(before);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].kind, Kind::Irecv);
  EXPECT_EQ(got[0].request, third);
  EXPECT_EQ(got[0].peer, 0u);
  EXPECT_EQ(got[0].bytes, 24u);
  EXPECT_EQ(got[1].kind, Kind::IsendComplete);
  EXPECT_EQ(got[1].request, second);

  // No active request left in the list: MPI returns outcount = MPI_UNDEFINED.
  MPI_Request nulls[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  CompletionScope none(tracing(), CompletionKind::Wait, 2, nulls, MPI_STATUSES_IGNORE, 2);
  const int undefined = MPI_UNDEFINED;
  none.after_some(MPI_SUCCESS, &undefined, nullptr);
  EXPECT_EQ(records().size(), before + 2);
}

TEST_F(Completion, TestanyRecordsNothingUntilACompletion) {
  MPI_Request reqs[3] = {fake_handle<MPI_Request>(1), MPI_REQUEST_NULL,
                         fake_handle<MPI_Request>(2)};
  const RequestId send = isend(reqs[0]);
  const RequestId recv = irecv(reqs[2]);
  std::size_t before = records().size();

  {  // Nothing complete: the call's Enter/Leave are its only records.
    CompletionScope done(tracing(), CompletionKind::Test, 3, reqs, MPI_STATUS_IGNORE, 1);
    const int index = MPI_UNDEFINED, flag = 0;
    done.after_testany(MPI_SUCCESS, &index, &flag);
  }
  EXPECT_EQ(records().size(), before);
  EXPECT_EQ(sem.requests.find(reqs[0])->id, send);  // both still pending
  EXPECT_EQ(sem.requests.find(reqs[2])->id, recv);

  {  // Request 2 completes.
    CompletionScope done(tracing(), CompletionKind::Test, 3, reqs, MPI_STATUS_IGNORE, 1);
    const int index = 2, flag = 1;
    done.statuses()[0] = make_status(3, 1, 8);
    reqs[2] = MPI_REQUEST_NULL;
    done.after_testany(MPI_SUCCESS, &index, &flag);
  }
  auto got = records_since(before);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].kind, Kind::Irecv);
  EXPECT_EQ(got[0].request, recv);

  before = records().size();
  {  // flag set with MPI_UNDEFINED: no active request was in the list.
    MPI_Request nulls[1] = {MPI_REQUEST_NULL};
    CompletionScope done(tracing(), CompletionKind::Test, 1, nulls, MPI_STATUS_IGNORE, 1);
    const int index = MPI_UNDEFINED, flag = 1;
    done.after_testany(MPI_SUCCESS, &index, &flag);
  }
  EXPECT_EQ(records().size(), before);
}

TEST_F(Completion, WaitNeverRecordsTests) {
  MPI_Request reqs[2] = {fake_handle<MPI_Request>(1), fake_handle<MPI_Request>(2)};
  isend(reqs[0]);
  isend(reqs[1]);
  const std::size_t before = records().size();
  CompletionScope done(tracing(), CompletionKind::Wait, 2, reqs, MPI_STATUS_IGNORE, 1);
  const int index = 0;
  done.statuses()[0] = make_status(2, 7, 0);
  done.after_waitany(MPI_SUCCESS, &index);
  ASSERT_EQ(records().size(), before + 1);
  EXPECT_EQ(records().back().kind, Kind::IsendComplete);
}

TEST_F(Completion, CancelledRequestIsRecordedAsCancelled) {
  MPI_Request req = fake_handle<MPI_Request>(1);
  const RequestId id = irecv(req, 2);
  CompletionScope done(tracing(), CompletionKind::Wait, 1, &req, MPI_STATUS_IGNORE, 1);
  done.statuses()[0] = make_status(2, 0, 0, /*cancelled=*/true);
  done.after_wait(MPI_SUCCESS);
  EXPECT_EQ(records().back().kind, Kind::RequestCancelled);
  EXPECT_EQ(records().back().request, id);
  EXPECT_EQ(sem.requests.size(), 0u);
}

TEST_F(Completion, FailedWaitRecordsNothing) {
  MPI_Request req = fake_handle<MPI_Request>(1);
  isend(req);
  const std::size_t before = records().size();
  CompletionScope done(tracing(), CompletionKind::Wait, 1, &req, MPI_STATUS_IGNORE, 1);
  done.after_wait(MPI_ERR_REQUEST);
  EXPECT_EQ(records().size(), before);
  EXPECT_TRUE(sem.requests.find(req));
}

TEST_F(Completion, UntrackedHandlesAreSkipped) {
  // A file I/O or RMA request the tracer never saw posted.
  MPI_Request req = fake_handle<MPI_Request>(99);
  const std::size_t before = records().size();
  CompletionScope done(tracing(), CompletionKind::Test, 1, &req, MPI_STATUS_IGNORE, 1);
  const int flag = 0;
  done.after_test(MPI_SUCCESS, &flag);
  EXPECT_EQ(records().size(), before);
}

TEST_F(Completion, HandleReusedByAnotherThreadDuringTheWaitIsLeftAlone) {
  const MPI_Request h = fake_handle<MPI_Request>(1);
  MPI_Request req = h;
  const RequestId first = isend(h);
  CompletionScope done(tracing(), CompletionKind::Wait, 1, &req, MPI_STATUS_IGNORE, 1);
  // While PMPI_Wait returns, another thread posts a new request that reuses the handle.
  const RequestId second = irecv(h);
  done.statuses()[0] = make_status(2, 7, 0);
  req = MPI_REQUEST_NULL;
  done.after_wait(MPI_SUCCESS);
  EXPECT_EQ(records().back().kind, Kind::IsendComplete);
  EXPECT_EQ(records().back().request, first);
  ASSERT_TRUE(sem.requests.find(h));
  EXPECT_EQ(sem.requests.find(h)->id, second);
}

TEST_F(Completion, RequestsSharingAHandleCompleteOnceEach) {
  // Open MPI hands out one shared, already complete request for sends it completed inline.
  const MPI_Request shared = fake_handle<MPI_Request>(1);
  const RequestId first = isend(shared);
  const RequestId second = isend(shared);
  const RequestId third = isend(shared);
  std::size_t before = records().size();

  MPI_Request pair[2] = {shared, shared};
  {
    CompletionScope done(tracing(), CompletionKind::Wait, 2, pair, MPI_STATUSES_IGNORE, 2);
    done.statuses()[0] = done.statuses()[1] = make_status(2, 7, 0);
    done.after_waitall(MPI_SUCCESS);
  }
  auto got = records_since(before);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].request, first);
  EXPECT_EQ(got[1].request, second);

  before = records().size();
  MPI_Request last = shared;
  CompletionScope done(tracing(), CompletionKind::Wait, 1, &last, MPI_STATUS_IGNORE, 1);
  done.statuses()[0] = make_status(2, 7, 0);
  done.after_wait(MPI_SUCCESS);
  got = records_since(before);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].request, third);
  EXPECT_EQ(sem.requests.size(), 0u);
}

TEST_F(Completion, PersistentRequestIsRecordedAtEachStartAndCompletion) {
  MPI_Request req = fake_handle<MPI_Request>(5);
  handle_send_init(tracing(), MPI_SUCCESS, 4, MPI_DOUBLE, 3, 11, MPI_COMM_WORLD, &req);
  EXPECT_TRUE(records().empty());  // nothing moves until MPI_Start

  std::vector<RequestId> ids;
  for (int round = 0; round < 2; ++round) {
    handle_start(tracing(), MPI_SUCCESS, 1, &req);
    ASSERT_EQ(records().back().kind, Kind::Isend);
    EXPECT_EQ(records().back().peer, 3u);
    EXPECT_EQ(records().back().tag, 11u);
    EXPECT_EQ(records().back().bytes, 32u);
    ids.push_back(records().back().request);
    CompletionScope done(tracing(), CompletionKind::Wait, 1, &req, MPI_STATUS_IGNORE, 1);
    done.statuses()[0] = make_status(1, 11, 0);  // a persistent handle stays valid
    done.after_wait(MPI_SUCCESS);
    EXPECT_EQ(records().back().kind, Kind::IsendComplete);
    EXPECT_EQ(records().back().request, ids.back());
  }
  EXPECT_NE(ids[0], ids[1]);

  // Waiting on an inactive persistent request completes nothing.
  const std::size_t before = records().size();
  CompletionScope idle(tracing(), CompletionKind::Wait, 1, &req, MPI_STATUS_IGNORE, 1);
  idle.after_wait(MPI_SUCCESS);
  EXPECT_EQ(records().size(), before);

  handle_request_free(tracing(), &req);
  EXPECT_EQ(sem.requests.size(), 0u);
  handle_start(tracing(), MPI_SUCCESS, 1, &req);
  EXPECT_EQ(records().size(), before);
}

TEST_F(Completion, StartallStartsPersistentSendsAndReceives) {
  MPI_Request reqs[2] = {fake_handle<MPI_Request>(1), fake_handle<MPI_Request>(2)};
  handle_recv_init(tracing(), MPI_SUCCESS, MPI_ANY_SOURCE, MPI_COMM_WORLD, &reqs[0]);
  handle_send_init(tracing(), MPI_SUCCESS, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD, &reqs[1]);
  handle_start(tracing(), MPI_SUCCESS, 2, reqs);
  ASSERT_EQ(records().size(), 2u);
  EXPECT_EQ(records()[0].kind, Kind::IrecvRequest);
  EXPECT_EQ(records()[1].kind, Kind::Isend);
}

}  // namespace
}  // namespace collwrap::tracer
