// ThreadRecorder (recorder.h): one OTF2 record per method, on the calling thread's own event
// writer, so no locking is needed here.
#include <otf2/otf2.h>

#include "backend/callsite_table.h"
#include "backend/definitions_writer.h"
#include "backend/location_registry.h"

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

}  // namespace

void ThreadRecorder::enter(Ticks t, RegionRef region, CallSiteRef site) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    OTF2_AttributeList* attributes = nullptr;
    if (CallSiteRef& last = state->last_site[region]; site != last) {
      last = site;
      attributes = state->attributes;
      OTF2_AttributeList_AddCallingContextRef(attributes, kCallSiteAttribute, site);
    }
    return OTF2_EvtWriter_Enter(w, attributes, at, region);
  });
}

void ThreadRecorder::leave(Ticks t, RegionRef region) noexcept {
  record(state, t,
         [&](OTF2_EvtWriter* w, Ticks at) { return OTF2_EvtWriter_Leave(w, nullptr, at, region); });
}

void ThreadRecorder::mpi_send(Ticks t, std::uint32_t receiver, CommRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiSend(w, nullptr, at, receiver, comm, tag, bytes);
  });
}

void ThreadRecorder::mpi_isend(Ticks t, std::uint32_t receiver, CommRef comm, std::uint32_t tag,
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

void ThreadRecorder::mpi_recv(Ticks t, std::uint32_t sender, CommRef comm, std::uint32_t tag,
                              std::uint64_t bytes) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_MpiRecv(w, nullptr, at, sender, comm, tag, bytes);
  });
}

void ThreadRecorder::mpi_irecv(Ticks t, std::uint32_t sender, CommRef comm, std::uint32_t tag,
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

void ThreadRecorder::mpi_collective_end(Ticks t, CollectiveOp op, CommRef comm, std::uint32_t root,
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

void ThreadRecorder::nbc_complete(Ticks t, CollectiveOp op, CommRef comm, std::uint32_t root,
                                  std::uint64_t sent, std::uint64_t received,
                                  RequestId req) noexcept {
  record(state, t, [&](OTF2_EvtWriter* w, Ticks at) {
    return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, at, OTF2_CollectiveOp(op), comm,
                                                        root, sent, received, req);
  });
}

}  // namespace collwrap::tracer
