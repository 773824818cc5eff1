// Point-to-point semantics: which message records a send, receive, post or start writes.
//
// - Peers are ranks within the communicator (OTF2's convention); on an intercommunicator the
//   remote rank's index in the communicator's definition (CommEntry::peer_index).
// - Bytes are the datatype size times the count for sends, the actual size from the status for
//   receives.
// - Receives record the actual source and tag from the status (wrappers substitute their own
//   status for MPI_STATUS_IGNORE), so MPI_ANY_SOURCE/MPI_ANY_TAG resolve.
// - MPI_PROC_NULL peers write no message record and their requests are not tracked.
// - Nonblocking calls and MPI_Start record the post (MpiIsend, MpiIrecvRequest) with a fresh
//   request id; CompletionScope writes the completion.
#pragma once

#include <mpi.h>

#include "mpi/comm_registry.h"
#include "mpi/semantics.h"

namespace collwrap::tracer {

// MPI_Send, Bsend, Ssend, Rsend, and the send half of MPI_Sendrecv(_replace); before PMPI.
void handle_send(const Tracing& t, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
// MPI_Isend, Ibsend, Issend, Irsend.
void handle_isend(const Tracing& t, int rc, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, const MPI_Request* request);
// MPI_Send_init, Bsend_init, Ssend_init, Rsend_init: records come at each MPI_Start.
void handle_send_init(const Tracing& t, int rc, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, const MPI_Request* request);

// MPI_Recv and the receive half of MPI_Sendrecv(_replace); after PMPI.
void handle_recv(const Tracing& t, int rc, MPI_Comm comm, const MPI_Status* status);
void handle_irecv(const Tracing& t, int rc, int source, MPI_Comm comm, const MPI_Request* request);
void handle_recv_init(const Tracing& t, int rc, int source, MPI_Comm comm,
                      const MPI_Request* request);

// MPI_Start (count 1) and MPI_Startall.
void handle_start(const Tracing& t, int rc, int count, const MPI_Request* requests);

// MPI_Mprobe (flag nullptr) and MPI_Improbe: remember the matched message's communicator.
void handle_matched_probe(const Tracing& t, int rc, MPI_Comm comm, const int* flag,
                          const MPI_Message* message);
// Before MPI_Mrecv/MPI_Imrecv: the communicator of the message they receive.
const CommEntry* take_matched_message(const Tracing& t, const MPI_Message* message);
void handle_mrecv(const Tracing& t, int rc, const CommEntry* comm, const MPI_Status* status);
void handle_imrecv(const Tracing& t, int rc, const CommEntry* comm, const MPI_Request* request);

// MPI_Request_free, before PMPI (after it, the handle is MPI_REQUEST_NULL).
void handle_request_free(const Tracing& t, const MPI_Request* request);

}  // namespace collwrap::tracer
