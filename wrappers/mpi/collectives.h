// Collective operations: what one call means (operation, communicator, root, bytes) and how it
// is recorded. Blocking collectives write MpiCollectiveBegin before the PMPI call and
// MpiCollectiveEnd after it; nonblocking ones write NonBlockingCollectiveRequest at the post and
// NonBlockingCollectiveComplete when Wait/Test completes the request (CompletionScope).
//
// The describe_* functions read only the arguments MPI defines as significant on this rank: a
// non-root's receive arguments of a gather (or send arguments of a scatter) may be garbage or
// MPI_DATATYPE_NULL, and MPI_IN_PLACE replaces a buffer by the rank's block of the other one.
#pragma once

#include <mpi.h>

#include "mpi/comm_registry.h"
#include "mpi/semantics.h"
#include "mpi/transfer_bytes.h"

namespace collwrap::tracer {

struct CollectiveCall {
  CollectiveOp op = CollectiveOp::Barrier;
  const CommEntry* comm = nullptr;  // nullptr: nothing to record (unknown communicator)
  std::uint32_t root =
      kUndefinedRank;  // as records give it; kUndefinedRank for unrooted operations
  Transfer bytes;
};

CollectiveCall describe_barrier(const Tracing& t, MPI_Comm comm);
CollectiveCall describe_bcast(const Tracing& t, int count, MPI_Datatype type, int root,
                              MPI_Comm comm);
CollectiveCall describe_scatter(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                MPI_Comm comm);
CollectiveCall describe_scatterv(const Tracing& t, const int sendcounts[], MPI_Datatype sendtype,
                                 const void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm);
CollectiveCall describe_gather(const Tracing& t, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm);
CollectiveCall describe_gatherv(const Tracing& t, const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, const int recvcounts[],
                                MPI_Datatype recvtype, int root, MPI_Comm comm);
CollectiveCall describe_reduce(const Tracing& t, int count, MPI_Datatype type, int root,
                               MPI_Comm comm);
CollectiveCall describe_allgather(const Tracing& t, const void* sendbuf, int sendcount,
                                  MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm);
CollectiveCall describe_allgatherv(const Tracing& t, const void* sendbuf, int sendcount,
                                   MPI_Datatype sendtype, const int recvcounts[],
                                   MPI_Datatype recvtype, MPI_Comm comm);
CollectiveCall describe_alltoall(const Tracing& t, const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm);
CollectiveCall describe_alltoallv(const Tracing& t, const void* sendbuf, const int sendcounts[],
                                  MPI_Datatype sendtype, const int recvcounts[],
                                  MPI_Datatype recvtype, MPI_Comm comm);
CollectiveCall describe_alltoallw(const Tracing& t, const void* sendbuf, const int sendcounts[],
                                  const MPI_Datatype sendtypes[], const int recvcounts[],
                                  const MPI_Datatype recvtypes[], MPI_Comm comm);
CollectiveCall describe_allreduce(const Tracing& t, int count, MPI_Datatype type, MPI_Comm comm);
CollectiveCall describe_reduce_scatter(const Tracing& t, const int recvcounts[], MPI_Datatype type,
                                       MPI_Comm comm);
CollectiveCall describe_reduce_scatter_block(const Tracing& t, int recvcount, MPI_Datatype type,
                                             MPI_Comm comm);
CollectiveCall describe_scan(const Tracing& t, int count, MPI_Datatype type, MPI_Comm comm);
CollectiveCall describe_exscan(const Tracing& t, int count, MPI_Datatype type, MPI_Comm comm);

// Neighborhood collectives, recorded as the matching operation over the topology's neighbors.
CollectiveCall describe_neighbor_allgather(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
CollectiveCall describe_neighbor_allgatherv(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                            const int recvcounts[], MPI_Datatype recvtype,
                                            MPI_Comm comm);
CollectiveCall describe_neighbor_alltoall(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
CollectiveCall describe_neighbor_alltoallv(const Tracing& t, const int sendcounts[],
                                           MPI_Datatype sendtype, const int recvcounts[],
                                           MPI_Datatype recvtype, MPI_Comm comm);
CollectiveCall describe_neighbor_alltoallw(const Tracing& t, const int sendcounts[],
                                           const MPI_Datatype sendtypes[], const int recvcounts[],
                                           const MPI_Datatype recvtypes[], MPI_Comm comm);

// Blocking collectives. The End is written even when the call failed: every
// MpiCollectiveBegin needs its End.
void handle_collective_begin(const Tracing& t, const CollectiveCall& call);
void handle_collective_end(const Tracing& t, const CollectiveCall& call);

// Nonblocking collectives: the post (its completion is CompletionScope's).
void handle_nbc_post(const Tracing& t, int rc, const CollectiveCall& call,
                     const MPI_Request* request);

}  // namespace collwrap::tracer
