#include "tracer_test_support.h"

#include <gtest/gtest.h>

#include "mpi/comms.h"
#include "record/process_group.h"

namespace collwrap::tracer {

// The recorder side of recorder.h, for a binary without the OTF2 recording layer.
struct ThreadRecorder::State {
  std::vector<testing::Record> records;
};

namespace {

using testing::Record;

void append(ThreadRecorder::State* state, Record record, Ticks time = 0) {
  record.time = time;
  if (state) state->records.push_back(record);
}

}  // namespace

// now() (inline in recorder.h) counts through now_other_timer(): the TSC flag stays off.
constinit std::atomic<bool> detail::g_timer_is_tsc{false};
Ticks now_other_timer() noexcept {
  static Ticks ticks = 0;
  return ++ticks;
}

void ThreadRecorder::enter(Ticks, RegionRef, CallSiteRef) noexcept {}
void ThreadRecorder::enter_from(Ticks, RegionRef, void*) noexcept {}
void ThreadRecorder::leave(Ticks, RegionRef) noexcept {}

void ThreadRecorder::mpi_send(Ticks, std::uint32_t receiver, CommRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  append(state, {Record::Kind::Send, receiver, comm, tag, bytes});
}
void ThreadRecorder::mpi_isend(Ticks, std::uint32_t receiver, CommRef comm, std::uint32_t tag,
                               std::uint64_t bytes, RequestId req) noexcept {
  append(state, {Record::Kind::Isend, receiver, comm, tag, bytes, 0, req});
}
void ThreadRecorder::mpi_isend_complete(Ticks t, RequestId req) noexcept {
  append(state, {.kind = Record::Kind::IsendComplete, .request = req}, t);
}
void ThreadRecorder::mpi_irecv_request(Ticks, RequestId req) noexcept {
  append(state, {.kind = Record::Kind::IrecvRequest, .request = req});
}
void ThreadRecorder::mpi_recv(Ticks, std::uint32_t sender, CommRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  append(state, {Record::Kind::Recv, sender, comm, tag, bytes});
}
void ThreadRecorder::mpi_irecv(Ticks t, std::uint32_t sender, CommRef comm, std::uint32_t tag,
                               std::uint64_t bytes, RequestId req) noexcept {
  append(state, {Record::Kind::Irecv, sender, comm, tag, bytes, 0, req}, t);
}
void ThreadRecorder::mpi_request_test(Ticks t, RequestId req) noexcept {
  append(state, {.kind = Record::Kind::RequestTest, .request = req}, t);
}
void ThreadRecorder::mpi_request_cancelled(Ticks t, RequestId req) noexcept {
  append(state, {.kind = Record::Kind::RequestCancelled, .request = req}, t);
}
void ThreadRecorder::mpi_collective_begin(Ticks) noexcept {
  append(state, {.kind = Record::Kind::CollectiveBegin});
}
void ThreadRecorder::mpi_collective_end(Ticks, CollectiveOp op, CommRef comm, std::uint32_t root,
                                        std::uint64_t sent, std::uint64_t received) noexcept {
  append(state, {Record::Kind::CollectiveEnd, root, comm, 0, sent, received, 0, op});
}
void ThreadRecorder::nbc_request(Ticks, RequestId req) noexcept {
  append(state, {.kind = Record::Kind::NbcRequest, .request = req});
}
void ThreadRecorder::nbc_complete(Ticks t, CollectiveOp op, CommRef comm, std::uint32_t root,
                                  std::uint64_t sent, std::uint64_t received,
                                  RequestId req) noexcept {
  append(state, {Record::Kind::NbcComplete, root, comm, 0, sent, received, req, op}, t);
}

void ThreadRecorder::rma_win_create(Ticks t, WindowRef win) noexcept {
  append(state, {.kind = Record::Kind::RmaWinCreate, .comm = win}, t);
}
void ThreadRecorder::rma_win_destroy(Ticks t, WindowRef win) noexcept {
  append(state, {.kind = Record::Kind::RmaWinDestroy, .comm = win}, t);
}
void ThreadRecorder::rma_put(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
                             RmaMatchId match) noexcept {
  append(state, {Record::Kind::RmaPut, remote, win, 0, bytes, 0, match}, t);
}
void ThreadRecorder::rma_get(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
                             RmaMatchId match) noexcept {
  append(state, {Record::Kind::RmaGet, remote, win, 0, 0, bytes, match}, t);
}
void ThreadRecorder::rma_atomic(Ticks t, WindowRef win, std::uint32_t remote, RmaAtomicType,
                                std::uint64_t sent, std::uint64_t received,
                                RmaMatchId match) noexcept {
  append(state, {Record::Kind::RmaAtomic, remote, win, 0, sent, received, match}, t);
}
void ThreadRecorder::rma_op_complete_non_blocking(Ticks t, WindowRef win,
                                                  RmaMatchId match) noexcept {
  append(state, {.kind = Record::Kind::RmaOpCompleteNonBlocking, .comm = win, .request = match}, t);
}
void ThreadRecorder::rma_collective_begin(Ticks t) noexcept {
  append(state, {.kind = Record::Kind::RmaCollectiveBegin}, t);
}
void ThreadRecorder::rma_collective_end(Ticks t, CollectiveOp op, RmaSyncLevel, WindowRef win,
                                        std::uint32_t root, std::uint64_t sent,
                                        std::uint64_t received, std::uint32_t) noexcept {
  append(state, {Record::Kind::RmaCollectiveEnd, root, win, 0, sent, received, 0, op}, t);
}
void ThreadRecorder::rma_group_sync(Ticks t, RmaSyncLevel, WindowRef win, GroupRef group) noexcept {
  append(state, {.kind = Record::Kind::RmaGroupSync, .comm = win, .tag = group}, t);
}
void ThreadRecorder::rma_request_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock, RmaLockType type) noexcept {
  append(state,
         {Record::Kind::RmaRequestLock, remote, win, std::uint32_t(lock), std::uint64_t(type)}, t);
}
void ThreadRecorder::rma_acquire_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock, RmaLockType type) noexcept {
  append(state,
         {Record::Kind::RmaAcquireLock, remote, win, std::uint32_t(lock), std::uint64_t(type)}, t);
}
void ThreadRecorder::rma_release_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock) noexcept {
  append(state, {Record::Kind::RmaReleaseLock, remote, win, std::uint32_t(lock)}, t);
}

// The generated wrappers are linked into this binary but never called: thread_recorder()
// (inline in recorder.h) finds recording off.
constinit std::atomic<bool> detail::g_recording{false};
constinit thread_local ThreadRecorder* detail::t_recorder = nullptr;
ThreadRecorder* detail::attach_thread_recorder() noexcept {
  return nullptr;
}
CallSiteRef intern_callsite(void*) noexcept {
  return 0;
}
void init_enter(RegionRef, void*) noexcept {}
void init_leave(std::unique_ptr<ProcessGroup>) noexcept {}
void clock_checkpoint(const char*) noexcept {}
RegionRef register_regions(Paradigm, std::span<const RegionInfo>) noexcept {
  return 0;
}
void register_definitions_source(DefinitionsSource) noexcept {}
void finalize_enter(RegionRef, void*) noexcept {}
void abort_enter(RegionRef, void*) noexcept {}

namespace testing {

RecordingRecorder::RecordingRecorder() {
  recorder_.state = new ThreadRecorder::State;
}
RecordingRecorder::~RecordingRecorder() {
  delete recorder_.state;
}
const std::vector<Record>& RecordingRecorder::records() const {
  return recorder_.state->records;
}

MPI_Status make_status(int source, int tag, std::uint64_t bytes, bool cancelled) {
  MPI_Status status{};
  status.MPI_SOURCE = source;
  status.MPI_TAG = tag;
  status.MPI_ERROR = MPI_SUCCESS;
  status._ucount = bytes;
  status._cancelled = cancelled ? 1 : 0;
  return status;
}

std::uint64_t FakeMpi::type_size(MPI_Datatype type) {
  queried_types.insert(type);
  const auto it = type_sizes.find(type);
  return it == type_sizes.end() ? 0 : it->second;
}

std::uint64_t FakeMpi::received_bytes(const MPI_Status& status) {
  return status._ucount;
}

bool FakeMpi::cancelled(const MPI_Status& status) {
  return status._cancelled != 0;
}

CommFacts FakeMpi::describe(MPI_Comm comm) {
  const auto it = comms.find(comm);
  if (it == comms.end()) ADD_FAILURE() << "describe() of a communicator the test did not set up";
  return it == comms.end() ? CommFacts{} : it->second;
}

AgreedComm FakeMpi::describe_new(MPI_Comm comm, std::uint64_t key_proposal) {
  proposals.push_back(key_proposal);
  return {describe(comm), agreed_key != 0 ? agreed_key : key_proposal};
}

CommFacts intra_facts(std::vector<std::int32_t> world_ranks, std::int32_t my_rank) {
  CommFacts facts;
  facts.size = static_cast<std::int32_t>(world_ranks.size());
  facts.rank = my_rank;
  facts.world_ranks = std::move(world_ranks);
  return facts;
}

SemanticsFixture::SemanticsFixture() {
  mpi.my_world_rank = 1;
  mpi.type_sizes = {{MPI_CHAR, 1}, {MPI_INT, 4}, {MPI_DOUBLE, 8}};
  mpi.comms[MPI_COMM_WORLD] = intra_facts({0, 1, 2, 3}, 1);
  mpi.comms[MPI_COMM_SELF] = intra_facts({1}, 0);
  start_comm_bookkeeping(sem);
}

}  // namespace testing
}  // namespace collwrap::tracer
