#include "record/event_log_writer.h"

#include "record/definitions_writer.h"
#include "record/event_log.h"

namespace collwrap::tracer {
namespace {

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

std::uint32_t low(std::uint64_t word) { return std::uint32_t(word); }
std::uint32_t high(std::uint64_t word) { return std::uint32_t(word >> 32); }

// Writes the record at `p` and advances `p` past it.
OTF2_ErrorCode write_record(OTF2_EvtWriter* w, OTF2_AttributeList* attributes, Ticks& last_time,
                            const std::uint64_t*& p) noexcept {
  const std::uint64_t h = p[0];
  const Ticks t = p[1] < last_time ? last_time : p[1];
  last_time = t;
  const std::uint64_t* x = p + 2;  // the payload
  const std::uint32_t a = log_a(h);
  const std::uint8_t s1 = log_small1(h);
  switch (log_kind(h)) {
    case LogKind::Enter:
      if (s1 == 0) {
        p = x;
        return OTF2_EvtWriter_Enter(w, nullptr, t, a);
      }
      p = x + 1;
      OTF2_AttributeList_AddCallingContextRef(attributes, kCallSiteAttribute, low(x[0]));
      return OTF2_EvtWriter_Enter(w, attributes, t, a);
    case LogKind::EnterLevel:
      p = x + 1;
      if (s1 != 0)
        OTF2_AttributeList_AddCallingContextRef(attributes, kCallSiteAttribute, low(x[0]));
      OTF2_AttributeList_AddInt32(attributes, kPcontrolLevelAttribute, std::int32_t(high(x[0])));
      return OTF2_EvtWriter_Enter(w, attributes, t, a);
    case LogKind::Leave:
      p = x;
      return OTF2_EvtWriter_Leave(w, nullptr, t, a);
    case LogKind::MpiSend:
      p = x + 2;
      return OTF2_EvtWriter_MpiSend(w, nullptr, t, a, low(x[0]), high(x[0]), x[1]);
    case LogKind::MpiIsend:
      p = x + 3;
      return OTF2_EvtWriter_MpiIsend(w, nullptr, t, a, low(x[0]), high(x[0]), x[1], x[2]);
    case LogKind::MpiIsendComplete:
      p = x + 1;
      return OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, x[0]);
    case LogKind::MpiIrecvRequest:
      p = x + 1;
      return OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, x[0]);
    case LogKind::MpiRecv:
      p = x + 2;
      return OTF2_EvtWriter_MpiRecv(w, nullptr, t, a, low(x[0]), high(x[0]), x[1]);
    case LogKind::MpiIrecv:
      p = x + 3;
      return OTF2_EvtWriter_MpiIrecv(w, nullptr, t, a, low(x[0]), high(x[0]), x[1], x[2]);
    case LogKind::MpiRequestTest:
      p = x + 1;
      return OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, x[0]);
    case LogKind::MpiRequestCancelled:
      p = x + 1;
      return OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, t, x[0]);
    case LogKind::MpiCollectiveBegin:
      p = x;
      return OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
    case LogKind::MpiCollectiveEnd:
      p = x + 3;
      return OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t, OTF2_CollectiveOp(s1), a,
                                             low(x[0]), x[1], x[2]);
    case LogKind::NbcRequest:
      p = x + 1;
      return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, t, x[0]);
    case LogKind::NbcComplete:
      p = x + 4;
      return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, t, OTF2_CollectiveOp(s1), a,
                                                          low(x[0]), x[1], x[2], x[3]);
    case LogKind::RmaWinCreate:
      p = x;
      return OTF2_EvtWriter_RmaWinCreate(w, nullptr, t, a);
    case LogKind::RmaWinDestroy:
      p = x;
      return OTF2_EvtWriter_RmaWinDestroy(w, nullptr, t, a);
    case LogKind::RmaPut:
      p = x + 3;
      return OTF2_EvtWriter_RmaPut(w, nullptr, t, a, low(x[0]), x[1], x[2]);
    case LogKind::RmaGet:
      p = x + 3;
      return OTF2_EvtWriter_RmaGet(w, nullptr, t, a, low(x[0]), x[1], x[2]);
    case LogKind::RmaAtomic:
      p = x + 4;
      return OTF2_EvtWriter_RmaAtomic(w, nullptr, t, a, low(x[0]), OTF2_RmaAtomicType(s1), x[1],
                                      x[2], x[3]);
    case LogKind::RmaOpCompleteBlocking:
      p = x + 1;
      return OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, t, a, x[0]);
    case LogKind::RmaOpCompleteNonBlocking:
      p = x + 1;
      return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, nullptr, t, a, x[0]);
    case LogKind::RmaOpCompleteRemote:
      p = x + 1;
      return OTF2_EvtWriter_RmaOpCompleteRemote(w, nullptr, t, a, x[0]);
    case LogKind::RmaCollectiveBegin:
      p = x;
      return OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, t);
    case LogKind::RmaCollectiveEnd: {
      p = x + 3;
      OTF2_AttributeList* list = nullptr;
      if (std::uint32_t upc_sync = high(x[0]); upc_sync != 0) {
        OTF2_AttributeList_AddUint32(attributes, kUpcSyncFlagsAttribute, upc_sync);
        list = attributes;
      }
      return OTF2_EvtWriter_RmaCollectiveEnd(w, list, t, OTF2_CollectiveOp(s1),
                                             OTF2_RmaSyncLevel(log_small2(h)), a, low(x[0]), x[1],
                                             x[2]);
    }
    case LogKind::RmaGroupSync:
      p = x + 1;
      return OTF2_EvtWriter_RmaGroupSync(w, nullptr, t, OTF2_RmaSyncLevel(s1), a, low(x[0]));
    case LogKind::RmaRequestLock:
      p = x + 2;
      return OTF2_EvtWriter_RmaRequestLock(w, nullptr, t, a, low(x[0]), x[1], OTF2_LockType(s1));
    case LogKind::RmaAcquireLock:
      p = x + 2;
      return OTF2_EvtWriter_RmaAcquireLock(w, nullptr, t, a, low(x[0]), x[1], OTF2_LockType(s1));
    case LogKind::RmaTryLock:
      p = x + 2;
      return OTF2_EvtWriter_RmaTryLock(w, nullptr, t, a, low(x[0]), x[1], OTF2_LockType(s1));
    case LogKind::RmaReleaseLock:
      p = x + 2;
      return OTF2_EvtWriter_RmaReleaseLock(w, nullptr, t, a, low(x[0]), x[1]);
    case LogKind::RmaSync:
      p = x + 1;
      return OTF2_EvtWriter_RmaSync(w, nullptr, t, a, low(x[0]), OTF2_RmaSyncType(s1));
    case LogKind::RmaWaitChange:
      p = x;
      return OTF2_EvtWriter_RmaWaitChange(w, nullptr, t, a);
  }
  return OTF2_ERROR_INVALID_DATA;  // a corrupt log: never written by this library
}

}  // namespace

OTF2_ErrorCode write_event_log(OTF2_EvtWriter* writer, OTF2_AttributeList* attributes,
                               Ticks& last_time, const std::uint64_t* begin,
                               const std::uint64_t* end) noexcept {
  for (const std::uint64_t* p = begin; p < end;) {
    if (OTF2_ErrorCode status = write_record(writer, attributes, last_time, p);
        status != OTF2_SUCCESS) {
      return status;
    }
  }
  return OTF2_SUCCESS;
}

}  // namespace collwrap::tracer
