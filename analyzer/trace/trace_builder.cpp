#include "trace_builder.h"

#include <algorithm>
#include <stdexcept>

namespace collwrap {

TraceBuilder::TraceBuilder(int ranks, int threads_per_rank) : threads_per_rank_(threads_per_rank) {
  trace_.path = "synthetic";
  trace_.world_size = ranks;
  trace_.nodes = {"node0"};
  Communicator world;
  world.name = "MPI_COMM_WORLD";
  for (int r = 0; r < ranks; ++r) world.world_ranks.push_back(r);
  trace_.comms.push_back(world);
  for (int r = 0; r < ranks; ++r) {
    for (int t = 0; t < threads_per_rank; ++t) {
      Location l;
      l.rank = r;
      l.thread = t;
      l.otf2_id = (static_cast<std::uint64_t>(t) << 32) | static_cast<std::uint32_t>(r);
      trace_.locations.push_back(std::move(l));
    }
  }
}

std::uint32_t TraceBuilder::comm(const std::vector<std::int32_t>& world_ranks,
                                 const std::string& name) {
  Communicator c;
  c.name = name;
  c.world_ranks = world_ranks;
  trace_.comms.push_back(std::move(c));
  return static_cast<std::uint32_t>(trace_.comms.size() - 1);
}

std::uint32_t TraceBuilder::topology_comm(const std::vector<std::int32_t>& world_ranks,
                                          const NeighborLists& in_neighbors) {
  const std::uint32_t index = comm(world_ranks, "topology");
  Communicator& c = trace_.comms[index];
  c.in_neighbors = in_neighbors;
  c.out_neighbors.assign(in_neighbors.size(), {});
  for (std::uint32_t i = 0; i < in_neighbors.size(); ++i)
    for (const std::uint32_t source : in_neighbors[i])
      if (source < c.out_neighbors.size()) c.out_neighbors[source].push_back(i);
  return index;
}

void TraceBuilder::role(const std::string& function, RegionRole role) {
  trace_.regions[region(function)].role = role;
}

std::uint32_t TraceBuilder::region(const std::string& function) {
  for (std::uint32_t i = 0; i < trace_.regions.size(); ++i)
    if (trace_.regions[i].name == function) return i;
  const bool pgas = function.starts_with("shmem_") || function.starts_with("upc_");
  trace_.regions.push_back(pgas ? classify_pgas_region(function) : classify_region(function));
  return static_cast<std::uint32_t>(trace_.regions.size() - 1);
}

std::uint32_t TraceBuilder::callsite(const std::string& file, std::uint32_t line) {
  for (std::uint32_t i = 0; i < trace_.callsites.size(); ++i)
    if (trace_.callsites[i].file == file && trace_.callsites[i].line == line) return i;
  trace_.callsites.push_back({file, line, "main"});
  return static_cast<std::uint32_t>(trace_.callsites.size() - 1);
}

CallRef TraceBuilder::call(int rank, const std::string& function, TimeNs enter, TimeNs leave,
                           const std::string& file, std::uint32_t line, int thread) {
  if (rank < 0 || rank >= trace_.world_size || thread < 0 || thread >= threads_per_rank_)
    throw std::out_of_range("TraceBuilder::call: no such location");
  const auto li = static_cast<std::uint32_t>(rank * threads_per_rank_ + thread);
  Location& l = trace_.locations[li];
  if (!l.call_enter.empty() && enter < l.call_enter.back())
    throw std::invalid_argument("TraceBuilder::call: calls must be added in time order");
  l.call_enter.push_back(enter);
  l.call_leave.push_back(leave);
  l.call_region.push_back(region(function));
  l.call_callsite.push_back(callsite(file, line));
  l.call_first_op.push_back(static_cast<std::uint32_t>(l.ops()));
  return {li, static_cast<std::uint32_t>(l.calls() - 1)};
}

void TraceBuilder::pcontrol_level(CallRef c, std::int32_t level) {
  loc(c).pcontrol.push_back({c.call, level});
}

std::uint32_t TraceBuilder::add_op(CallRef c, OpKind kind, TimeNs time) {
  Location& l = loc(c);
  if (c.call + 1 != l.calls())
    throw std::invalid_argument("TraceBuilder: ops must be added to the location's last call");
  l.op_kind.push_back(kind);
  l.op_coll.push_back(CollOp::None);
  l.op_time_offset.push_back(0);
  l.op_call.push_back(c.call);
  l.op_peer.push_back(kNoWorldRank);
  l.op_comm.push_back(kNone);
  l.op_tag.push_back(0);
  l.op_bytes_sent.push_back(0);
  l.set_request(static_cast<std::uint32_t>(l.ops() - 1), 0);
  l.set_op_time(static_cast<std::uint32_t>(l.ops() - 1), time);
  l.call_first_op.back() = static_cast<std::uint32_t>(l.ops());
  return static_cast<std::uint32_t>(l.ops() - 1);
}

namespace {
void set_p2p(Location& l, std::uint32_t op, int peer, int tag, std::uint64_t bytes,
             std::uint32_t comm, std::uint64_t request) {
  l.op_peer[op] = peer;
  l.op_tag[op] = tag;
  l.set_bytes_sent(op, bytes);
  l.op_comm[op] = comm;
  l.set_request(op, request);
}
}  // namespace

std::uint32_t TraceBuilder::send(CallRef c, int to, int tag, std::uint64_t bytes,
                                 std::uint32_t comm) {
  const auto op = add_op(c, OpKind::Send, loc(c).call_enter[c.call]);
  set_p2p(loc(c), op, to, tag, bytes, comm, 0);
  return op;
}

std::uint32_t TraceBuilder::isend(CallRef c, int to, int tag, std::uint64_t bytes,
                                  std::uint64_t request, std::uint32_t comm) {
  const auto op = add_op(c, OpKind::Isend, loc(c).call_enter[c.call]);
  set_p2p(loc(c), op, to, tag, bytes, comm, request);
  return op;
}

std::uint32_t TraceBuilder::isend_complete(CallRef c, std::uint64_t request) {
  const auto op = add_op(c, OpKind::IsendComplete, loc(c).call_leave[c.call]);
  loc(c).set_request(op, request);
  return op;
}

std::uint32_t TraceBuilder::irecv_request(CallRef c, std::uint64_t request) {
  const auto op = add_op(c, OpKind::IrecvRequest, loc(c).call_enter[c.call]);
  loc(c).set_request(op, request);
  return op;
}

std::uint32_t TraceBuilder::recv(CallRef c, int from, int tag, std::uint64_t bytes,
                                 std::uint32_t comm) {
  const auto op = add_op(c, OpKind::Recv, loc(c).call_leave[c.call]);
  set_p2p(loc(c), op, from, tag, bytes, comm, 0);
  return op;
}

std::uint32_t TraceBuilder::irecv(CallRef c, int from, int tag, std::uint64_t bytes,
                                  std::uint64_t request, std::uint32_t comm) {
  const auto op = add_op(c, OpKind::Irecv, loc(c).call_leave[c.call]);
  set_p2p(loc(c), op, from, tag, bytes, comm, request);
  return op;
}

std::uint32_t TraceBuilder::collective(CallRef c, CollOp coll, std::uint32_t comm, int root,
                                       std::uint64_t sent, std::uint64_t received) {
  const auto op = add_op(c, OpKind::CollectiveEnd, loc(c).call_leave[c.call]);
  Location& l = loc(c);
  l.op_coll[op] = coll;
  l.op_comm[op] = comm;
  l.op_peer[op] = root;
  l.set_bytes_sent(op, sent);
  l.op_bytes_received.append(op, received);
  return op;
}

void TraceBuilder::upc_sync(CallRef c, std::uint32_t op, UpcSync entry, UpcSync exit) {
  loc(c).op_tag[op] = upc_sync_flags(entry, exit);
}

std::uint32_t TraceBuilder::request_cancelled(CallRef c, std::uint64_t request) {
  const auto op = add_op(c, OpKind::RequestCancelled, loc(c).call_leave[c.call]);
  loc(c).set_request(op, request);
  return op;
}

std::uint32_t TraceBuilder::nbc_request(CallRef c, std::uint64_t request) {
  const auto op = add_op(c, OpKind::NbcRequest, loc(c).call_enter[c.call]);
  loc(c).set_request(op, request);
  return op;
}

std::uint32_t TraceBuilder::nbc_complete(CallRef c, CollOp coll, std::uint64_t request,
                                         std::uint32_t comm, int root, std::uint64_t sent,
                                         std::uint64_t received) {
  const auto op = add_op(c, OpKind::NbcComplete, loc(c).call_leave[c.call]);
  Location& l = loc(c);
  l.op_coll[op] = coll;
  l.op_comm[op] = comm;
  l.op_peer[op] = root;
  l.set_bytes_sent(op, sent);
  l.op_bytes_received.append(op, received);
  l.set_request(op, request);
  return op;
}

namespace {
void set_rma(Location& l, std::uint32_t op, int target, std::uint64_t sent, std::uint64_t received,
             std::uint32_t comm) {
  l.op_peer[op] = target;
  l.set_bytes_sent(op, sent);
  l.op_bytes_received.append(op, received);
  l.op_comm[op] = comm;
}
}  // namespace

std::uint32_t TraceBuilder::put(CallRef c, int target, std::uint64_t bytes, std::uint32_t comm) {
  const auto op = add_op(c, OpKind::RmaPut, loc(c).call_enter[c.call]);
  set_rma(loc(c), op, target, bytes, 0, comm);
  return op;
}

std::uint32_t TraceBuilder::get(CallRef c, int target, std::uint64_t bytes, std::uint32_t comm) {
  const auto op = add_op(c, OpKind::RmaGet, loc(c).call_enter[c.call]);
  set_rma(loc(c), op, target, 0, bytes, comm);
  return op;
}

std::uint32_t TraceBuilder::atomic(CallRef c, int target, std::uint64_t sent,
                                   std::uint64_t received, std::uint32_t comm) {
  const auto op = add_op(c, OpKind::RmaAtomic, loc(c).call_enter[c.call]);
  set_rma(loc(c), op, target, sent, received, comm);
  return op;
}

std::uint32_t TraceBuilder::lock(CallRef c, OpKind kind, std::uint64_t lock, bool shared,
                                 std::uint32_t comm) {
  const bool at_leave = kind == OpKind::RmaLockAcquire || kind == OpKind::RmaLockTry;
  const Location& l = loc(c);
  const auto op = add_op(c, kind, at_leave ? l.call_leave[c.call] : l.call_enter[c.call]);
  loc(c).op_comm[op] = comm;
  loc(c).op_tag[op] = rma_lock_tag(lock);
  loc(c).set_bytes_sent(op, shared ? 1 : 0);
  return op;
}

std::uint32_t TraceBuilder::group_sync(CallRef c, std::uint32_t group, std::uint32_t window_comm) {
  const auto op = add_op(c, OpKind::RmaGroupSync, loc(c).call_leave[c.call]);
  loc(c).op_comm[op] = group;
  loc(c).op_tag[op] = static_cast<std::int32_t>(window_comm);
  return op;
}

std::uint32_t TraceBuilder::window_op_at_leave(CallRef c, OpKind kind) {
  const auto op = add_op(c, kind, loc(c).call_leave[c.call]);
  loc(c).op_comm[op] = 0;
  return op;
}

std::uint32_t TraceBuilder::wait_change(CallRef c) {
  return window_op_at_leave(c, OpKind::RmaWaitChange);
}

std::uint32_t TraceBuilder::memory_sync(CallRef c) {
  return window_op_at_leave(c, OpKind::RmaSync);
}

Trace TraceBuilder::finish() {
  for (const Location& l : trace_.locations) {
    if (l.calls() == 0) continue;
    trace_.end = std::max(trace_.end, l.call_leave.back());
    trace_.event_count += 2 * l.calls() + l.ops();
  }
  trace_.finish_indexes();
  return std::move(trace_);
}

}  // namespace collwrap
