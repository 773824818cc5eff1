#include "mpi/point_to_point.h"

#include <optional>

#include "mpi/comms.h"
#include "mpi/transfer_bytes.h"

namespace collwrap::tracer {
namespace {

bool posted(int rc, const MPI_Request* request) {
  return rc == MPI_SUCCESS && request && *request != MPI_REQUEST_NULL;
}

// The send a request stands for; nullopt when no message moves (MPI_PROC_NULL).
std::optional<TrackedRequest> send_request(const Tracing& t, int count, MPI_Datatype type, int dest,
                                           int tag, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL) return std::nullopt;
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return std::nullopt;
  TrackedRequest send;
  send.kind = RequestKind::Send;
  send.comm = c;
  send.peer = c->peer_index(dest);
  send.tag = static_cast<std::uint32_t>(tag);
  send.bytes = count > 0 ? block_bytes(count, t.sem.type_size(type)) : 0;
  return send;
}

std::optional<TrackedRequest> receive_on(const CommEntry* comm) {
  if (!comm) return std::nullopt;
  TrackedRequest recv;
  recv.kind = RequestKind::Recv;
  recv.comm = comm;
  return recv;
}

std::optional<TrackedRequest> recv_request(const Tracing& t, int source, MPI_Comm comm) {
  if (source == MPI_PROC_NULL) return std::nullopt;
  return receive_on(comm_entry(t.sem, comm));
}

// MpiIsend or MpiIrecvRequest for a request that has just been posted or started.
void record_post(const Tracing& t, const TrackedRequest& r) {
  if (r.kind == RequestKind::Send) {
    t.rec.mpi_isend(t.entered, r.peer, r.comm->ref, r.tag, r.bytes, r.id);
  } else {
    t.rec.mpi_irecv_request(t.entered, r.id);
  }
}

void post_and_record(const Tracing& t, MPI_Request handle, TrackedRequest& request) {
  request.id = t.sem.requests.post(handle, request);
  record_post(t, request);
}

void record_recv(const Tracing& t, const CommEntry& comm, const MPI_Status& status) {
  t.rec.mpi_recv(t.left, comm.peer_index(status.MPI_SOURCE), comm.ref,
                 static_cast<std::uint32_t>(status.MPI_TAG), t.sem.mpi.received_bytes(status));
}

}  // namespace

void handle_send(const Tracing& t, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (const auto send = send_request(t, count, type, dest, tag, comm)) {
    t.rec.mpi_send(t.entered, send->peer, send->comm->ref, send->tag, send->bytes);
  }
}

void handle_isend(const Tracing& t, int rc, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, const MPI_Request* request) {
  if (!posted(rc, request)) return;
  if (auto send = send_request(t, count, type, dest, tag, comm))
    post_and_record(t, *request, *send);
}

void handle_send_init(const Tracing& t, int rc, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, const MPI_Request* request) {
  if (!posted(rc, request)) return;
  if (const auto send = send_request(t, count, type, dest, tag, comm)) {
    t.sem.requests.add_persistent(*request, *send);
  }
}

void handle_recv(const Tracing& t, int rc, MPI_Comm comm, const MPI_Status* status) {
  if (rc != MPI_SUCCESS || !status || status->MPI_SOURCE == MPI_PROC_NULL) return;
  if (const CommEntry* c = comm_entry(t.sem, comm)) record_recv(t, *c, *status);
}

void handle_irecv(const Tracing& t, int rc, int source, MPI_Comm comm, const MPI_Request* request) {
  if (!posted(rc, request)) return;
  if (auto recv = recv_request(t, source, comm)) post_and_record(t, *request, *recv);
}

void handle_recv_init(const Tracing& t, int rc, int source, MPI_Comm comm,
                      const MPI_Request* request) {
  if (!posted(rc, request)) return;
  if (const auto recv = recv_request(t, source, comm)) {
    t.sem.requests.add_persistent(*request, *recv);
  }
}

void handle_start(const Tracing& t, int rc, int count, const MPI_Request* requests) {
  if (rc != MPI_SUCCESS || !requests) return;
  for (int i = 0; i < count; ++i) {
    if (const auto started = t.sem.requests.start(requests[i])) record_post(t, *started);
  }
}

void handle_matched_probe(const Tracing& t, int rc, MPI_Comm comm, const int* flag,
                          const MPI_Message* message) {
  if (rc != MPI_SUCCESS || (flag && !*flag) || !message) return;
  // MPI_MESSAGE_NO_PROC: a probe for MPI_PROC_NULL; its receive moves nothing.
  if (*message == MPI_MESSAGE_NULL || *message == MPI_MESSAGE_NO_PROC) return;
  if (const CommEntry* c = comm_entry(t.sem, comm)) t.sem.messages.add(*message, c);
}

const CommEntry* take_matched_message(const Tracing& t, const MPI_Message* message) {
  if (!message || *message == MPI_MESSAGE_NULL || *message == MPI_MESSAGE_NO_PROC) {
    return nullptr;
  }
  return t.sem.messages.take(*message);
}

void handle_mrecv(const Tracing& t, int rc, const CommEntry* comm, const MPI_Status* status) {
  if (rc != MPI_SUCCESS || !comm || !status || status->MPI_SOURCE == MPI_PROC_NULL) return;
  record_recv(t, *comm, *status);
}

void handle_imrecv(const Tracing& t, int rc, const CommEntry* comm, const MPI_Request* request) {
  if (!posted(rc, request)) return;
  if (auto recv = receive_on(comm)) post_and_record(t, *request, *recv);
}

void handle_request_free(const Tracing& t, const MPI_Request* request) {
  if (request && *request != MPI_REQUEST_NULL) t.sem.requests.forget(*request);
}

}  // namespace collwrap::tracer
