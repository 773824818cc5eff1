#include "ops_operations.h"

namespace collwrap::bench {
namespace {

constexpr int kTag = 7;

constexpr OpsOperation kOperations[] = {
    {"TIMING", true, false, false, false, nullptr},
    {"BARRIER", true, false, false, false, [](const OpsCall& c) { MPI_Barrier(c.comm); }},
    {"ALLREDUCE", false, true, false, false,
     [](const OpsCall& c) { MPI_Allreduce(c.send, c.recv, c.n, MPI_INT, MPI_SUM, c.comm); }},
    {"REDUCE", false, true, false, false,
     [](const OpsCall& c) { MPI_Reduce(c.send, c.recv, c.n, MPI_INT, MPI_SUM, 0, c.comm); }},
    {"BROADCAST", false, true, false, false,
     [](const OpsCall& c) { MPI_Bcast(c.send, c.n, MPI_INT, 0, c.comm); }},
    {"GATHER", false, true, false, true,
     [](const OpsCall& c) { MPI_Gather(c.send, c.n, MPI_INT, c.recv, c.n, MPI_INT, 0, c.comm); }},
    {"ALLGATHER", false, true, false, true,
     [](const OpsCall& c) { MPI_Allgather(c.send, c.n, MPI_INT, c.recv, c.n, MPI_INT, c.comm); }},
    {"ALL-TO-ALL", false, true, false, true,
     [](const OpsCall& c) { MPI_Alltoall(c.send, c.n, MPI_INT, c.recv, c.n, MPI_INT, c.comm); }},
    {"ISEND&WAIT", false, true, true, false,
     [](const OpsCall& c) {
       if (c.rank == 0) {
         MPI_Request request;
         MPI_Isend(c.send, c.n, MPI_INT, 1, kTag, c.comm, &request);
         MPI_Wait(&request, MPI_STATUS_IGNORE);
       } else if (c.rank == 1) {
         MPI_Recv(c.recv, c.n, MPI_INT, 0, kTag, c.comm, MPI_STATUS_IGNORE);
       }
     }},
    {"BLOCKING SEND", false, true, true, false,
     [](const OpsCall& c) {
       if (c.rank == 0)
         MPI_Send(c.send, c.n, MPI_INT, 1, kTag, c.comm);
       else if (c.rank == 1)
         MPI_Recv(c.recv, c.n, MPI_INT, 0, kTag, c.comm, MPI_STATUS_IGNORE);
     }},
    {"SENDRECV", false, true, true, false,
     [](const OpsCall& c) {
       if (c.rank > 1) return;
       const int peer = 1 - c.rank;
       MPI_Sendrecv(c.send, c.n, MPI_INT, peer, kTag, c.recv, c.n, MPI_INT, peer, kTag, c.comm,
                    MPI_STATUS_IGNORE);
     }},
    {"SEND&RECV", false, true, true, false,
     [](const OpsCall& c) {
       if (c.rank == 0) {
         MPI_Send(c.send, c.n, MPI_INT, 1, kTag, c.comm);
         MPI_Recv(c.recv, c.n, MPI_INT, 1, kTag, c.comm, MPI_STATUS_IGNORE);
       } else if (c.rank == 1) {
         MPI_Recv(c.recv, c.n, MPI_INT, 0, kTag, c.comm, MPI_STATUS_IGNORE);
         MPI_Send(c.send, c.n, MPI_INT, 0, kTag, c.comm);
       }
     }},
    // A zero-length message and its answer: about twice the latency.
    {"SIGNAL", true, false, true, false,
     [](const OpsCall& c) {
       if (c.rank == 0) {
         MPI_Send(nullptr, 0, MPI_INT, 1, kTag, c.comm);
         MPI_Recv(nullptr, 0, MPI_INT, 1, kTag, c.comm, MPI_STATUS_IGNORE);
       } else if (c.rank == 1) {
         MPI_Recv(nullptr, 0, MPI_INT, 0, kTag, c.comm, MPI_STATUS_IGNORE);
         MPI_Send(nullptr, 0, MPI_INT, 0, kTag, c.comm);
       }
     }},
};

}  // namespace

std::span<const OpsOperation> ops_operations() {
  return kOperations;
}

std::size_t ops_buffer_ints(const OpsOperation& op, std::size_t n, int ranks) {
  return op.all_ranks ? n * std::size_t(ranks) : n;
}

}  // namespace collwrap::bench
