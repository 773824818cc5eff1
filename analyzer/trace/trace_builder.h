// Builds a Trace by hand, for unit tests and synthetic benchmarks: no MPI, no files.
//
//   TraceBuilder b(4);                                  // 4 ranks, one thread each
//   auto c = b.call(0, "MPI_Recv", 100, 900, "a.c", 17); // rank 0 in MPI_Recv 100..900 ns
//   b.recv(c, /*from*/1, /*tag*/7, /*bytes*/8);
//   Trace t = b.finish();
//
// Times are nanoseconds. Calls on one location must be added in time order.
#pragma once

#include <string>

#include "trace_model.h"

namespace collwrap {

struct CallRef {
  std::uint32_t loc = kNone;
  std::uint32_t call = kNone;
};

class TraceBuilder {
 public:
  explicit TraceBuilder(int ranks, int threads_per_rank = 1);

  // Adds a communicator over the given world ranks; index 0 is MPI_COMM_WORLD already.
  std::uint32_t comm(const std::vector<std::int32_t>& world_ranks, const std::string& name = "");

  // Adds a communicator with a virtual topology: in_neighbors[i] are the ranks within it that
  // rank i receives from in neighborhood collectives (out-neighbors follow from them).
  std::uint32_t topology_comm(const std::vector<std::int32_t>& world_ranks,
                              const NeighborLists& in_neighbors);

  // Gives `function`'s region the OTF2 region role the archive would (before its first call).
  void role(const std::string& function, RegionRole role);

  // Adds a call on (rank, thread); file/line become a call site (deduplicated).
  CallRef call(int rank, const std::string& function, TimeNs enter, TimeNs leave,
               const std::string& file = "test.c", std::uint32_t line = 0, int thread = 0);

  // Ops inside a call; `time` defaults to the call's enter (sends, requests) or leave
  // (receives and completions). Peers and roots are world ranks; comm 0 = world.
  std::uint32_t send(CallRef c, int to, int tag, std::uint64_t bytes, std::uint32_t comm = 0);
  std::uint32_t isend(CallRef c, int to, int tag, std::uint64_t bytes, std::uint64_t request,
                      std::uint32_t comm = 0);
  std::uint32_t isend_complete(CallRef c, std::uint64_t request);
  std::uint32_t irecv_request(CallRef c, std::uint64_t request);
  std::uint32_t recv(CallRef c, int from, int tag, std::uint64_t bytes, std::uint32_t comm = 0);
  std::uint32_t irecv(CallRef c, int from, int tag, std::uint64_t bytes, std::uint64_t request,
                      std::uint32_t comm = 0);
  std::uint32_t collective(CallRef c, CollOp op, std::uint32_t comm = 0, int root = kNoWorldRank,
                           std::uint64_t sent = 0, std::uint64_t received = 0);
  // Gives collective op `op` of call `c` a UPC collective's sync modes, as the reader does from
  // the UpcSyncFlags attribute of its RmaCollectiveEnd.
  void upc_sync(CallRef c, std::uint32_t op, UpcSync entry, UpcSync exit);
  std::uint32_t request_cancelled(CallRef c, std::uint64_t request);
  std::uint32_t nbc_request(CallRef c, std::uint64_t request);
  std::uint32_t nbc_complete(CallRef c, CollOp op, std::uint64_t request, std::uint32_t comm = 0,
                             int root = kNoWorldRank, std::uint64_t sent = 0,
                             std::uint64_t received = 0);

  // One-sided ops (OpenSHMEM, UPC): transfers at the call's enter, with the target's world
  // rank; lock records (request and release at enter, acquire at leave) with a lock id; a
  // wait for memory to change at leave. Comm 0 = world (the window's communicator).
  std::uint32_t put(CallRef c, int target, std::uint64_t bytes, std::uint32_t comm = 0);
  std::uint32_t get(CallRef c, int target, std::uint64_t bytes, std::uint32_t comm = 0);
  std::uint32_t atomic(CallRef c, int target, std::uint64_t sent, std::uint64_t received,
                       std::uint32_t comm = 0);
  std::uint32_t lock(CallRef c, OpKind kind, std::uint64_t lock, bool shared = false,
                     std::uint32_t comm = 0);
  // MPI_Win_post/start/complete/wait: an RmaGroupSync at leave naming the epoch's group (a
  // communicator over its members) and the window's communicator.
  std::uint32_t group_sync(CallRef c, std::uint32_t group, std::uint32_t window_comm = 0);
  std::uint32_t wait_change(CallRef c);
  std::uint32_t memory_sync(CallRef c);  // a fence or quiet, at leave

  // Marks call `c` (an MPI_Pcontrol) as carrying `level`, as the reader does from the Enter's
  // PcontrolLevel attribute.
  void pcontrol_level(CallRef c, std::int32_t level);

  Trace finish();

 private:
  std::uint32_t add_op(CallRef c, OpKind kind, TimeNs time);
  std::uint32_t window_op_at_leave(CallRef c, OpKind kind);  // on the world window
  std::uint32_t region(const std::string& function);
  std::uint32_t callsite(const std::string& file, std::uint32_t line);
  Location& loc(CallRef c) { return trace_.locations[c.loc]; }

  Trace trace_;
  int threads_per_rank_;
};

}  // namespace collwrap
