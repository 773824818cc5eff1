// ThreadRecorder (recorder.h): one OTF2 record per method, on the calling thread's own event
// writer, so no locking is needed here.
#include <otf2/otf2.h>

#include "record/callsite_capture.h"
#include "record/callsite_table.h"
#include "record/definitions_writer.h"
#include "record/location_registry.h"

namespace collwrap::tracer {
namespace {

// Writes one record with `write(writer, time)`. The writer is null once the location was
// closed (finalize, abort) or after a failure; an OTF2 error stops recording on this rank.
template <typename Write>
inline void record(ThreadRecorder::State* state, Ticks t, Write write) noexcept {
  if (state->writer == nullptr) return;
  if (OTF2_ErrorCode status = write(state->writer, state->ordered(t)); status != OTF2_SUCCESS)
      [[unlikely]] {
    recording_failed(status);
  }
}

// The recorder's enums are OTF2's values, so records cast them.
static_assert(std::uint8_t(Paradigm::Mpi) == OTF2_PARADIGM_MPI);
static_assert(std::uint8_t(Paradigm::Shmem) == OTF2_PARADIGM_SHMEM);
static_assert(std::uint8_t(Paradigm::Upc) == OTF2_PARADIGM_UPC);
static_assert(std::uint8_t(CollectiveOp::DestroyHandle) == OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
static_assert(std::uint32_t(RmaSyncLevel::ProcessAndMemory) ==
              (OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY));
static_assert(std::uint8_t(RmaSyncType::NotifyOut) == OTF2_RMA_SYNC_TYPE_NOTIFY_OUT);
static_assert(std::uint8_t(RmaLockType::Shared) == OTF2_LOCK_SHARED);
static_assert(std::uint8_t(RmaAtomicType::FetchAndAccumulate) ==
              OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE);

}  // namespace

namespace {

// Adds the CallSite attribute when `site` differs from the previous Enter's of `region`;
// returns the attribute list to write with the Enter, or nullptr (OTF2 empties the list when it
// writes the record).
OTF2_AttributeList* callsite_attribute(ThreadRecorder::State* state,
                                       ThreadRecorder::State::LastEnter& last,
                                       CallSiteRef site) noexcept {
  if (site == last.site) return nullptr;
  last.site = site;
  OTF2_AttributeList_AddCallingContextRef(state->attributes, kCallSiteAttribute, site);
  return state->attributes;
}

}  // namespace

void ThreadRecorder::enter(Ticks t, RegionRef region, CallSiteRef site) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    ThreadRecorder::State::LastEnter& last = state->last_enter[region];
    last.return_address = nullptr;
    return OTF2_EvtWriter_Enter(w, callsite_attribute(state, last, site), at, region);
  });
}

void ThreadRecorder::enter_from(Ticks t, RegionRef region, void* return_address) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    ThreadRecorder::State::LastEnter& last = state->last_enter[region];
    OTF2_AttributeList* attributes = nullptr;
    if (return_address != last.return_address) [[unlikely]] {
      attributes = callsite_attribute(state, last, intern_callsite(return_address));
      last.return_address = callsite_is_return_address() ? return_address : nullptr;
    }
    return OTF2_EvtWriter_Enter(w, attributes, at, region);
  });
}

void ThreadRecorder::enter_with_level(Ticks t, RegionRef region, CallSiteRef site,
                                      std::int32_t level) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    ThreadRecorder::State::LastEnter& last = state->last_enter[region];
    last.return_address = nullptr;
    callsite_attribute(state, last, site);
    OTF2_AttributeList_AddInt32(state->attributes, kPcontrolLevelAttribute, level);
    return OTF2_EvtWriter_Enter(w, state->attributes, at, region);
  });
}

void ThreadRecorder::leave(Ticks t, RegionRef region) noexcept {
  record(state, t,
         [&](OTF2_EvtWriter* w, Ticks at) { return OTF2_EvtWriter_Leave(w, nullptr, at, region); });
}

void ThreadRecorder::mpi_send(Ticks t, std::uint32_t receiver, GroupRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiSend(w, nullptr, at, receiver, comm, tag, bytes);
  });
}

void ThreadRecorder::mpi_isend(Ticks t, std::uint32_t receiver, GroupRef comm, std::uint32_t tag,
                               std::uint64_t bytes, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiIsend(w, nullptr, at, receiver, comm, tag, bytes, req);
  });
}

void ThreadRecorder::mpi_isend_complete(Ticks t, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiIsendComplete(w, nullptr, at, req);
  });
}

void ThreadRecorder::mpi_irecv_request(Ticks t, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, at, req);
  });
}

void ThreadRecorder::mpi_recv(Ticks t, std::uint32_t sender, GroupRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiRecv(w, nullptr, at, sender, comm, tag, bytes);
  });
}

void ThreadRecorder::mpi_irecv(Ticks t, std::uint32_t sender, GroupRef comm, std::uint32_t tag,
                               std::uint64_t bytes, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiIrecv(w, nullptr, at, sender, comm, tag, bytes, req);
  });
}

void ThreadRecorder::mpi_request_test(Ticks t, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiRequestTest(w, nullptr, at, req);
  });
}

void ThreadRecorder::mpi_request_cancelled(Ticks t, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, at, req);
  });
}

void ThreadRecorder::mpi_collective_begin(Ticks t) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at);
  });
}

void ThreadRecorder::mpi_collective_end(Ticks t, CollectiveOp op, GroupRef comm, std::uint32_t root,
                                        std::uint64_t sent, std::uint64_t received) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, at, OTF2_CollectiveOp(op), comm, root, sent,
                                           received);
  });
}

void ThreadRecorder::nbc_request(Ticks t, RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, at, req);
  });
}

void ThreadRecorder::nbc_complete(Ticks t, CollectiveOp op, GroupRef comm, std::uint32_t root,
                                  std::uint64_t sent, std::uint64_t received,
                                  RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, at, OTF2_CollectiveOp(op), comm,
                                                        root, sent, received, req);
  });
}

void ThreadRecorder::rma_win_create(Ticks t, WindowRef win) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaWinCreate(w, nullptr, at, win);
  });
}

void ThreadRecorder::rma_win_destroy(Ticks t, WindowRef win) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaWinDestroy(w, nullptr, at, win);
  });
}

void ThreadRecorder::rma_put(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
                             RmaMatchId match) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaPut(w, nullptr, at, win, remote, bytes, match);
  });
}

void ThreadRecorder::rma_get(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
                             RmaMatchId match) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaGet(w, nullptr, at, win, remote, bytes, match);
  });
}

void ThreadRecorder::rma_atomic(Ticks t, WindowRef win, std::uint32_t remote, RmaAtomicType type,
                                std::uint64_t sent, std::uint64_t received,
                                RmaMatchId match) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaAtomic(w, nullptr, at, win, remote, OTF2_RmaAtomicType(type), sent,
                                    received, match);
  });
}

void ThreadRecorder::rma_op_complete_blocking(Ticks t, WindowRef win, RmaMatchId match) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, at, win, match);
  });
}

void ThreadRecorder::rma_op_complete_non_blocking(Ticks t, WindowRef win,
                                                  RmaMatchId match) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, nullptr, at, win, match);
  });
}

void ThreadRecorder::rma_op_complete_remote(Ticks t, WindowRef win, RmaMatchId match) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaOpCompleteRemote(w, nullptr, at, win, match);
  });
}

void ThreadRecorder::rma_collective_begin(Ticks t) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, at);
  });
}

void ThreadRecorder::rma_collective_end(Ticks t, CollectiveOp op, RmaSyncLevel level, WindowRef win,
                                        std::uint32_t root, std::uint64_t sent,
                                        std::uint64_t received, std::uint32_t upc_sync) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    OTF2_AttributeList* attributes = nullptr;
    if (upc_sync != 0) {
      OTF2_AttributeList_AddUint32(state->attributes, kUpcSyncFlagsAttribute, upc_sync);
      attributes = state->attributes;
    }
    return OTF2_EvtWriter_RmaCollectiveEnd(w, attributes, at, OTF2_CollectiveOp(op),
                                           OTF2_RmaSyncLevel(level), win, root, sent, received);
  });
}

void ThreadRecorder::rma_group_sync(Ticks t, RmaSyncLevel level, WindowRef win,
                                    GroupRef group) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaGroupSync(w, nullptr, at, OTF2_RmaSyncLevel(level), win, group);
  });
}

void ThreadRecorder::rma_request_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock, RmaLockType type) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaRequestLock(w, nullptr, at, win, remote, lock, OTF2_LockType(type));
  });
}

void ThreadRecorder::rma_acquire_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock, RmaLockType type) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaAcquireLock(w, nullptr, at, win, remote, lock, OTF2_LockType(type));
  });
}

void ThreadRecorder::rma_try_lock(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t lock,
                                  RmaLockType type) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaTryLock(w, nullptr, at, win, remote, lock, OTF2_LockType(type));
  });
}

void ThreadRecorder::rma_release_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaReleaseLock(w, nullptr, at, win, remote, lock);
  });
}

void ThreadRecorder::rma_sync(Ticks t, WindowRef win, std::uint32_t remote,
                              RmaSyncType type) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaSync(w, nullptr, at, win, remote, OTF2_RmaSyncType(type));
  });
}

void ThreadRecorder::rma_wait_change(Ticks t, WindowRef win) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_RmaWaitChange(w, nullptr, at, win);
  });
}

}  // namespace collwrap::tracer
