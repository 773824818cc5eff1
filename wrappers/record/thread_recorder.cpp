// ThreadRecorder (recorder.h): each method appends one record to the calling thread's own
// event log (event_log.h), so no locking is needed here; the log becomes OTF2 records when it
// is full and when the location closes (event_log_writer.h). The payload layout of each kind is
// listed in event_log.h; event_log_writer.cpp reads it back in the same order.
#include <utility>

#include "record/callsite_capture.h"
#include "record/callsite_table.h"
#include "record/event_log.h"
#include "record/location_registry.h"

namespace collwrap::tracer {
namespace {

// The slow path of append: the log is full (written out first) or closed (the record is
// dropped). Out of line, so that the fast path saves no registers and makes no call.
template <typename... Payload>
[[gnu::noinline, gnu::cold]] void append_to_full_log(ThreadRecorder::State* state, Ticks t,
                                                     std::uint64_t header,
                                                     Payload... payload) noexcept {
  std::uint64_t* p = state->make_room(t);
  if (p == nullptr) return;
  p[0] = header;
  p[1] = t;
  std::size_t i = 2;
  ((p[i++] = std::uint64_t(payload)), ...);
  state->log.next = p + 2 + sizeof...(Payload);
}

// Appends a record of `header`, `t` and `payload` words. The one comparison covers the longest
// record (see EventLog).
template <typename... Payload>
inline void append(ThreadRecorder::State* state, Ticks t, std::uint64_t header,
                   Payload... payload) noexcept {
  static_assert(sizeof...(Payload) <= kMaxLogPayload);
  std::uint64_t* p = state->log.next;
  if (p >= state->log.limit) [[unlikely]]
    return append_to_full_log(state, t, header, payload...);
  p[0] = header;
  p[1] = t;
  std::size_t i = 2;
  ((p[i++] = std::uint64_t(payload)), ...);
  state->log.next = p + 2 + sizeof...(Payload);
  // The log is far larger than the caches, so every line it reaches is a miss that the store
  // would wait for: asking for the line 512 bytes ahead, for writing, keeps that wait off the
  // program's calls (-4 ns per call for the Irecv/Isend/Wait cycle, which writes 80 bytes per
  // call). A prefetch past the log's end does nothing.
  __builtin_prefetch(p + 64, 1, 3);
}

// An Enter of `region` from `site`: carries the call site (the CallSite attribute) only when
// it differs from the previous Enter's of the region.
inline void append_enter(ThreadRecorder::State* state, Ticks t, RegionRef region,
                         ThreadRecorder::State::LastEnter& last, CallSiteRef site) noexcept {
  if (site == last.site) {
    append(state, t, log_header(LogKind::Enter, region));
  } else {
    last.site = site;
    append(state, t, log_header(LogKind::Enter, region, 1), site);
  }
}

}  // namespace

void ThreadRecorder::enter(Ticks t, RegionRef region, CallSiteRef site) noexcept {
  ThreadRecorder::State::LastEnter& last = state->last_enter[region];
  last.return_address = nullptr;
  append_enter(state, t, region, last, site);
}

namespace {
// An Enter from neither of the region's two recent return addresses: looks its site up. Out
// of line, as the slow path of enter_from.
[[gnu::noinline]] void enter_from_new_address(ThreadRecorder::State* state, Ticks t,
                                              RegionRef region, void* return_address) noexcept {
  ThreadRecorder::State::LastEnter& last = state->last_enter[region];
  const CallSiteRef site = intern_callsite(return_address);
  if (callsite_is_return_address()) {
    last.other_return_address = last.return_address;
    last.other_site = last.site;
    append_enter(state, t, region, last, site);
    last.return_address = return_address;
  } else {
    append_enter(state, t, region, last, site);
    last.return_address = nullptr;
  }
}
}  // namespace

void ThreadRecorder::enter_from(Ticks t, RegionRef region, void* return_address) noexcept {
  ThreadRecorder::State::LastEnter& last = state->last_enter[region];
  if (return_address == last.return_address) [[likely]]
    return append(state, t, log_header(LogKind::Enter, region));
  // The region's other recent address, as when a loop calls MPI_Wait on two lines: the two
  // swap places, and the Enter carries the site that changed.
  if (return_address != last.other_return_address)
    return enter_from_new_address(state, t, region, return_address);
  std::swap(last.return_address, last.other_return_address);
  std::swap(last.site, last.other_site);
  append(state, t, log_header(LogKind::Enter, region, 1), last.site);
}

void ThreadRecorder::enter_with_level(Ticks t, RegionRef region, CallSiteRef site,
                                      std::int32_t level) noexcept {
  ThreadRecorder::State::LastEnter& last = state->last_enter[region];
  last.return_address = nullptr;
  const bool changed = site != last.site;
  last.site = site;
  append(state, t, log_header(LogKind::EnterLevel, region, changed ? 1 : 0),
         log_pair(site, std::uint32_t(level)));
}

void ThreadRecorder::leave(Ticks t, RegionRef region) noexcept {
  append(state, t, log_header(LogKind::Leave, region));
}

void ThreadRecorder::mpi_send(Ticks t, std::uint32_t receiver, GroupRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  append(state, t, log_header(LogKind::MpiSend, receiver), log_pair(comm, tag), bytes);
}

void ThreadRecorder::mpi_isend(Ticks t, std::uint32_t receiver, GroupRef comm, std::uint32_t tag,
                               std::uint64_t bytes, RequestId req) noexcept {
  append(state, t, log_header(LogKind::MpiIsend, receiver), log_pair(comm, tag), bytes, req);
}

void ThreadRecorder::mpi_isend_complete(Ticks t, RequestId req) noexcept {
  append(state, t, log_header(LogKind::MpiIsendComplete), req);
}

void ThreadRecorder::mpi_irecv_request(Ticks t, RequestId req) noexcept {
  append(state, t, log_header(LogKind::MpiIrecvRequest), req);
}

void ThreadRecorder::mpi_recv(Ticks t, std::uint32_t sender, GroupRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  append(state, t, log_header(LogKind::MpiRecv, sender), log_pair(comm, tag), bytes);
}

void ThreadRecorder::mpi_irecv(Ticks t, std::uint32_t sender, GroupRef comm, std::uint32_t tag,
                               std::uint64_t bytes, RequestId req) noexcept {
  append(state, t, log_header(LogKind::MpiIrecv, sender), log_pair(comm, tag), bytes, req);
}

void ThreadRecorder::mpi_request_test(Ticks t, RequestId req) noexcept {
  append(state, t, log_header(LogKind::MpiRequestTest), req);
}

void ThreadRecorder::mpi_request_cancelled(Ticks t, RequestId req) noexcept {
  append(state, t, log_header(LogKind::MpiRequestCancelled), req);
}

void ThreadRecorder::mpi_collective_begin(Ticks t) noexcept {
  append(state, t, log_header(LogKind::MpiCollectiveBegin));
}

void ThreadRecorder::mpi_collective_end(Ticks t, CollectiveOp op, GroupRef comm, std::uint32_t root,
                                        std::uint64_t sent, std::uint64_t received) noexcept {
  append(state, t, log_header(LogKind::MpiCollectiveEnd, comm, std::uint8_t(op)), root, sent,
         received);
}

void ThreadRecorder::nbc_request(Ticks t, RequestId req) noexcept {
  append(state, t, log_header(LogKind::NbcRequest), req);
}

void ThreadRecorder::nbc_complete(Ticks t, CollectiveOp op, GroupRef comm, std::uint32_t root,
                                  std::uint64_t sent, std::uint64_t received,
                                  RequestId req) noexcept {
  append(state, t, log_header(LogKind::NbcComplete, comm, std::uint8_t(op)), root, sent, received,
         req);
}

void ThreadRecorder::rma_win_create(Ticks t, WindowRef win) noexcept {
  append(state, t, log_header(LogKind::RmaWinCreate, win));
}

void ThreadRecorder::rma_win_destroy(Ticks t, WindowRef win) noexcept {
  append(state, t, log_header(LogKind::RmaWinDestroy, win));
}

void ThreadRecorder::rma_put(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
                             RmaMatchId match) noexcept {
  append(state, t, log_header(LogKind::RmaPut, win), remote, bytes, match);
}

void ThreadRecorder::rma_get(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
                             RmaMatchId match) noexcept {
  append(state, t, log_header(LogKind::RmaGet, win), remote, bytes, match);
}

void ThreadRecorder::rma_atomic(Ticks t, WindowRef win, std::uint32_t remote, RmaAtomicType type,
                                std::uint64_t sent, std::uint64_t received,
                                RmaMatchId match) noexcept {
  append(state, t, log_header(LogKind::RmaAtomic, win, std::uint8_t(type)), remote, sent, received,
         match);
}

void ThreadRecorder::rma_op_complete_blocking(Ticks t, WindowRef win, RmaMatchId match) noexcept {
  append(state, t, log_header(LogKind::RmaOpCompleteBlocking, win), match);
}

void ThreadRecorder::rma_op_complete_non_blocking(Ticks t, WindowRef win,
                                                  RmaMatchId match) noexcept {
  append(state, t, log_header(LogKind::RmaOpCompleteNonBlocking, win), match);
}

void ThreadRecorder::rma_op_complete_remote(Ticks t, WindowRef win, RmaMatchId match) noexcept {
  append(state, t, log_header(LogKind::RmaOpCompleteRemote, win), match);
}

void ThreadRecorder::rma_collective_begin(Ticks t) noexcept {
  append(state, t, log_header(LogKind::RmaCollectiveBegin));
}

void ThreadRecorder::rma_collective_end(Ticks t, CollectiveOp op, RmaSyncLevel level, WindowRef win,
                                        std::uint32_t root, std::uint64_t sent,
                                        std::uint64_t received, std::uint32_t upc_sync) noexcept {
  append(state, t,
         log_header(LogKind::RmaCollectiveEnd, win, std::uint8_t(op), std::uint8_t(level)),
         log_pair(root, upc_sync), sent, received);
}

void ThreadRecorder::rma_group_sync(Ticks t, RmaSyncLevel level, WindowRef win,
                                    GroupRef group) noexcept {
  append(state, t, log_header(LogKind::RmaGroupSync, win, std::uint8_t(level)), group);
}

void ThreadRecorder::rma_request_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock, RmaLockType type) noexcept {
  append(state, t, log_header(LogKind::RmaRequestLock, win, std::uint8_t(type)), remote, lock);
}

void ThreadRecorder::rma_acquire_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock, RmaLockType type) noexcept {
  append(state, t, log_header(LogKind::RmaAcquireLock, win, std::uint8_t(type)), remote, lock);
}

void ThreadRecorder::rma_try_lock(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t lock,
                                  RmaLockType type) noexcept {
  append(state, t, log_header(LogKind::RmaTryLock, win, std::uint8_t(type)), remote, lock);
}

void ThreadRecorder::rma_release_lock(Ticks t, WindowRef win, std::uint32_t remote,
                                      std::uint64_t lock) noexcept {
  append(state, t, log_header(LogKind::RmaReleaseLock, win), remote, lock);
}

void ThreadRecorder::rma_sync(Ticks t, WindowRef win, std::uint32_t remote,
                              RmaSyncType type) noexcept {
  append(state, t, log_header(LogKind::RmaSync, win, std::uint8_t(type)), remote);
}

void ThreadRecorder::rma_wait_change(Ticks t, WindowRef win) noexcept {
  append(state, t, log_header(LogKind::RmaWaitChange, win));
}

}  // namespace collwrap::tracer
