#include "mpi/collectives.h"

#include <span>
#include <vector>

#include "mpi/comms.h"

namespace collwrap::tracer {
namespace {

// Bytes of `count` elements; the type is not even looked at when nothing moves.
std::uint64_t block(const Tracing& t, int count, MPI_Datatype type) {
  return count > 0 ? block_bytes(count, t.sem.type_size(type)) : 0;
}

std::span<const int> counts_of(const int counts[], std::size_t n) {
  return counts ? std::span<const int>(counts, n) : std::span<const int>();
}

// Ranks data goes to or comes from.
std::uint64_t peers(const CommEntry& comm) {
  return static_cast<std::uint64_t>(comm.inter ? comm.remote_size : comm.size);
}

// Intercommunicators: the root passes MPI_ROOT, the rest of its group MPI_PROC_NULL, and the
// other group the root's remote rank.
Participation rooted(const CommEntry& comm, int root) {
  if (!comm.inter) return {peers(comm), root == comm.rank, true};
  return {peers(comm), root == MPI_ROOT, root != MPI_ROOT && root != MPI_PROC_NULL};
}

std::uint32_t root_index(const CommEntry& comm, int root) {
  if (comm.inter && root == MPI_ROOT) return kRootSelf;
  if (comm.inter && root == MPI_PROC_NULL) return kUndefinedRank;
  return comm.peer_index(root);
}

// Σ counts[i] × size(types[i]), looking only at the types of nonzero counts (MPI allows
// MPI_DATATYPE_NULL there); slots where `real` is false move nothing.
std::uint64_t typed_sum(const Tracing& t, std::span<const int> counts, const MPI_Datatype types[],
                        const std::vector<bool>* real = nullptr) {
  std::vector<std::uint64_t> sizes(counts.size(), 0);
  for (std::size_t i = 0; i < counts.size() && types; ++i) {
    const bool moves = counts[i] > 0 && (!real || (i < real->size() && (*real)[i]));
    if (moves) sizes[i] = t.sem.type_size(types[i]);
  }
  return sum_bytes(counts, sizes);
}

std::uint64_t real_slots(const std::vector<bool>& slots) {
  std::uint64_t n = 0;
  for (const bool real : slots) n += real ? 1 : 0;
  return n;
}

// The rank's own entry of a counts array, for MPI_IN_PLACE.
int own_count(const int counts[], const CommEntry& comm) {
  return counts && comm.rank >= 0 && comm.rank < comm.size ? counts[comm.rank] : 0;
}

CollectiveCall unrooted(CollectiveOp op, const CommEntry* comm, Transfer bytes) {
  return {op, comm, kUndefinedRank, bytes};
}

}  // namespace

CollectiveCall describe_barrier(const Tracing& t, MPI_Comm comm) {
  return unrooted(CollectiveOp::Barrier, comm_entry(t.sem, comm), {});
}

CollectiveCall describe_bcast(const Tracing& t, int count, MPI_Datatype type, int root,
                              MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const Participation p = rooted(*c, root);
  const std::uint64_t b = p.root || p.leaf ? block(t, count, type) : 0;
  return {CollectiveOp::Bcast, c, root_index(*c, root), one_to_all(p, p.peers * b, b)};
}

CollectiveCall describe_scatter(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const Participation p = rooted(*c, root);
  const std::uint64_t sblock = p.root ? block(t, sendcount, sendtype) : 0;
  const std::uint64_t rblock = !p.leaf                   ? 0
                               : recvbuf == MPI_IN_PLACE ? sblock
                                                         : block(t, recvcount, recvtype);
  return {CollectiveOp::Scatter, c, root_index(*c, root), one_to_all(p, p.peers * sblock, rblock)};
}

CollectiveCall describe_scatterv(const Tracing& t, const int sendcounts[], MPI_Datatype sendtype,
                                 const void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const Participation p = rooted(*c, root);
  const std::uint64_t ssize = p.root ? t.sem.type_size(sendtype) : 0;
  const std::uint64_t root_sends = sum_bytes(counts_of(sendcounts, p.peers), ssize);
  const std::uint64_t rblock = !p.leaf ? 0
                               : recvbuf == MPI_IN_PLACE
                                   ? block_bytes(own_count(sendcounts, *c), ssize)
                                   : block(t, recvcount, recvtype);
  return {CollectiveOp::Scatterv, c, root_index(*c, root), one_to_all(p, root_sends, rblock)};
}

CollectiveCall describe_gather(const Tracing& t, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const Participation p = rooted(*c, root);
  const std::uint64_t rblock = p.root ? block(t, recvcount, recvtype) : 0;
  const std::uint64_t sblock = !p.leaf                   ? 0
                               : sendbuf == MPI_IN_PLACE ? rblock
                                                         : block(t, sendcount, sendtype);
  return {CollectiveOp::Gather, c, root_index(*c, root), all_to_one(p, sblock, p.peers * rblock)};
}

CollectiveCall describe_gatherv(const Tracing& t, const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, const int recvcounts[],
                                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const Participation p = rooted(*c, root);
  const std::uint64_t rsize = p.root ? t.sem.type_size(recvtype) : 0;
  const std::uint64_t root_receives = sum_bytes(counts_of(recvcounts, p.peers), rsize);
  const std::uint64_t sblock = !p.leaf ? 0
                               : sendbuf == MPI_IN_PLACE
                                   ? block_bytes(own_count(recvcounts, *c), rsize)
                                   : block(t, sendcount, sendtype);
  return {CollectiveOp::Gatherv, c, root_index(*c, root), all_to_one(p, sblock, root_receives)};
}

CollectiveCall describe_reduce(const Tracing& t, int count, MPI_Datatype type, int root,
                               MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const Participation p = rooted(*c, root);
  const std::uint64_t b = p.root || p.leaf ? block(t, count, type) : 0;
  return {CollectiveOp::Reduce, c, root_index(*c, root), all_to_one(p, b, p.peers * b)};
}

CollectiveCall describe_allgather(const Tracing& t, const void* sendbuf, int sendcount,
                                  MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t rblock = block(t, recvcount, recvtype);
  const std::uint64_t sblock = sendbuf == MPI_IN_PLACE ? rblock : block(t, sendcount, sendtype);
  return unrooted(CollectiveOp::Allgather, c, {peers(*c) * sblock, peers(*c) * rblock});
}

CollectiveCall describe_allgatherv(const Tracing& t, const void* sendbuf, int sendcount,
                                   MPI_Datatype sendtype, const int recvcounts[],
                                   MPI_Datatype recvtype, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t rsize = t.sem.type_size(recvtype);
  const std::uint64_t received = sum_bytes(counts_of(recvcounts, peers(*c)), rsize);
  const std::uint64_t sblock = sendbuf == MPI_IN_PLACE
                                   ? block_bytes(own_count(recvcounts, *c), rsize)
                                   : block(t, sendcount, sendtype);
  return unrooted(CollectiveOp::Allgatherv, c, {peers(*c) * sblock, received});
}

CollectiveCall describe_alltoall(const Tracing& t, const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t rblock = block(t, recvcount, recvtype);
  const std::uint64_t sblock = sendbuf == MPI_IN_PLACE ? rblock : block(t, sendcount, sendtype);
  return unrooted(CollectiveOp::Alltoall, c, {peers(*c) * sblock, peers(*c) * rblock});
}

CollectiveCall describe_alltoallv(const Tracing& t, const void* sendbuf, const int sendcounts[],
                                  MPI_Datatype sendtype, const int recvcounts[],
                                  MPI_Datatype recvtype, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t received =
      sum_bytes(counts_of(recvcounts, peers(*c)), t.sem.type_size(recvtype));
  const std::uint64_t sent = sendbuf == MPI_IN_PLACE ? received
                                                     : sum_bytes(counts_of(sendcounts, peers(*c)),
                                                                 t.sem.type_size(sendtype));
  return unrooted(CollectiveOp::Alltoallv, c, {sent, received});
}

CollectiveCall describe_alltoallw(const Tracing& t, const void* sendbuf, const int sendcounts[],
                                  const MPI_Datatype sendtypes[], const int recvcounts[],
                                  const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t received = typed_sum(t, counts_of(recvcounts, peers(*c)), recvtypes);
  const std::uint64_t sent = sendbuf == MPI_IN_PLACE
                                 ? received
                                 : typed_sum(t, counts_of(sendcounts, peers(*c)), sendtypes);
  return unrooted(CollectiveOp::Alltoallw, c, {sent, received});
}

CollectiveCall describe_allreduce(const Tracing& t, int count, MPI_Datatype type, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t b = block(t, count, type);
  return unrooted(CollectiveOp::Allreduce, c, {peers(*c) * b, peers(*c) * b});
}

CollectiveCall describe_reduce_scatter(const Tracing& t, const int recvcounts[], MPI_Datatype type,
                                       MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  // The send buffer holds every rank's block; the rank receives its block reduced over all.
  const std::uint64_t size = t.sem.type_size(type);
  const auto local = static_cast<std::size_t>(c->size);
  const std::uint64_t sent = sum_bytes(counts_of(recvcounts, local), size);
  const std::uint64_t received = peers(*c) * block_bytes(own_count(recvcounts, *c), size);
  return unrooted(CollectiveOp::ReduceScatter, c, {sent, received});
}

CollectiveCall describe_reduce_scatter_block(const Tracing& t, int recvcount, MPI_Datatype type,
                                             MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t b = block(t, recvcount, type);
  const auto local = static_cast<std::uint64_t>(c->size);
  return unrooted(CollectiveOp::ReduceScatterBlock, c, {local * b, peers(*c) * b});
}

CollectiveCall describe_scan(const Tracing& t, int count, MPI_Datatype type, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  return unrooted(CollectiveOp::Scan, c, scan_bytes(c->size, c->rank, block(t, count, type)));
}

CollectiveCall describe_exscan(const Tracing& t, int count, MPI_Datatype type, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  return unrooted(CollectiveOp::Exscan, c, exscan_bytes(c->size, c->rank, block(t, count, type)));
}

CollectiveCall describe_neighbor_allgather(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  return unrooted(CollectiveOp::Allgather, c,
                  {real_slots(c->out_neighbors) * block(t, sendcount, sendtype),
                   real_slots(c->in_neighbors) * block(t, recvcount, recvtype)});
}

CollectiveCall describe_neighbor_allgatherv(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                            const int recvcounts[], MPI_Datatype recvtype,
                                            MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t received = sum_bytes(counts_of(recvcounts, c->in_neighbors.size()),
                                           t.sem.type_size(recvtype), c->in_neighbors);
  return unrooted(CollectiveOp::Allgatherv, c,
                  {real_slots(c->out_neighbors) * block(t, sendcount, sendtype), received});
}

CollectiveCall describe_neighbor_alltoall(const Tracing& t, int sendcount, MPI_Datatype sendtype,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  return unrooted(CollectiveOp::Alltoall, c,
                  {real_slots(c->out_neighbors) * block(t, sendcount, sendtype),
                   real_slots(c->in_neighbors) * block(t, recvcount, recvtype)});
}

CollectiveCall describe_neighbor_alltoallv(const Tracing& t, const int sendcounts[],
                                           MPI_Datatype sendtype, const int recvcounts[],
                                           MPI_Datatype recvtype, MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t sent = sum_bytes(counts_of(sendcounts, c->out_neighbors.size()),
                                       t.sem.type_size(sendtype), c->out_neighbors);
  const std::uint64_t received = sum_bytes(counts_of(recvcounts, c->in_neighbors.size()),
                                           t.sem.type_size(recvtype), c->in_neighbors);
  return unrooted(CollectiveOp::Alltoallv, c, {sent, received});
}

CollectiveCall describe_neighbor_alltoallw(const Tracing& t, const int sendcounts[],
                                           const MPI_Datatype sendtypes[], const int recvcounts[],
                                           const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const CommEntry* c = comm_entry(t.sem, comm);
  if (!c) return {};
  const std::uint64_t sent =
      typed_sum(t, counts_of(sendcounts, c->out_neighbors.size()), sendtypes, &c->out_neighbors);
  const std::uint64_t received =
      typed_sum(t, counts_of(recvcounts, c->in_neighbors.size()), recvtypes, &c->in_neighbors);
  return unrooted(CollectiveOp::Alltoallw, c, {sent, received});
}

void handle_collective_begin(const Tracing& t, const CollectiveCall& call) {
  if (call.comm) t.rec.mpi_collective_begin(t.entered);
}

void handle_collective_end(const Tracing& t, const CollectiveCall& call) {
  if (!call.comm) return;
  t.rec.mpi_collective_end(t.left, call.op, call.comm->ref, call.root, call.bytes.sent,
                           call.bytes.received);
}

void handle_nbc_post(const Tracing& t, int rc, const CollectiveCall& call,
                     const MPI_Request* request) {
  if (rc != MPI_SUCCESS || !call.comm || !request || *request == MPI_REQUEST_NULL) return;
  TrackedRequest tracked;
  tracked.kind = RequestKind::Collective;
  tracked.comm = call.comm;
  tracked.peer = call.root;
  tracked.bytes = call.bytes.sent;
  tracked.received = call.bytes.received;
  tracked.op = call.op;
  t.rec.nbc_request(t.entered, t.sem.requests.post(*request, tracked));
}

}  // namespace collwrap::tracer
