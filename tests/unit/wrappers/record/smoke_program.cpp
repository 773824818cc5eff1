// An MPI program that drives the recording layer directly, the way the generated wrappers do:
// every "wrapped" call below takes its call site from __builtin_return_address(0), records
// Enter, the MPI record and Leave, and calls the PMPI function. It registers the small region
// table and communicators the MPI adapter would provide, and uses the adapter's process group.
//
// Lines marked "CALLSITE <name>" are checked by verify_smoke_archive.py: the recorded call
// site must resolve to exactly that line of this file.
//
// Usage: record_smoke [finalize|abort|exit] [calls of the worker thread, default 100]
#include <mpi.h>
#include <otf2/otf2.h>

#include <cstring>
#include <string>
#include <thread>

#include "mpi/mpi_process_group.h"
#include "record/recorder.h"

namespace collwrap::tracer {

// The only region table, so its entries' RegionRefs are their indices.
enum Region : RegionRef {
  kInit,
  kFinalize,
  kSend,
  kRecv,
  kIsend,
  kIrecv,
  kWait,
  kBarrier,
  kCommRank,
  kAbort,
  kRegionCount
};

constexpr std::uint8_t kFunction = OTF2_REGION_ROLE_FUNCTION;
constexpr std::uint8_t kP2P = OTF2_REGION_ROLE_POINT2POINT;
const RegionInfo kRegions[] = {
    {"MPI_Init", kFunction},      {"MPI_Finalize", kFunction},
    {"MPI_Send", kP2P},           {"MPI_Recv", kP2P},
    {"MPI_Isend", kP2P},          {"MPI_Irecv", kP2P},
    {"MPI_Wait", kP2P},           {"MPI_Barrier", OTF2_REGION_ROLE_BARRIER},
    {"MPI_Comm_rank", kFunction}, {"MPI_Abort", kFunction},
};
const RegionRef kFirstRegion = register_regions(Paradigm::Mpi, kRegions);

constexpr GroupRef kWorld = 0;
constexpr GroupRef kSelf = 1;

AdapterDefinitions communicators() {
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  GroupInfo world{kWorld, Paradigm::Mpi, 0, "MPI_COMM_WORLD", {}};
  for (int r = 0; r < size; ++r) world.members.push_back(r);
  GroupInfo self{kSelf, Paradigm::Mpi, (std::uint64_t(rank) << 32) | 1, "MPI_COMM_SELF", {rank}};
  return {{world, self}, {}};
}

}  // namespace collwrap::tracer

namespace {
using namespace collwrap::tracer;

__attribute__((noinline)) int traced_init_thread(int* argc, char*** argv) {
  init_enter(kInit, __builtin_return_address(0));
  int provided = 0;
  int rc = PMPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  register_definitions_source(communicators);
  init_leave(std::make_unique<MpiProcessGroup>(MPI_COMM_WORLD));
  return rc;
}

__attribute__((noinline)) int traced_finalize() {
  finalize_enter(kFinalize, __builtin_return_address(0));
  return PMPI_Finalize();
}

__attribute__((noinline)) void traced_abort() {
  abort_enter(kAbort, __builtin_return_address(0));
  PMPI_Abort(MPI_COMM_WORLD, 3);
}

__attribute__((noinline)) int traced_send(const int* buf, int count, int dest, int tag) {
  ThreadRecorder* rec = thread_recorder();
  if (rec == nullptr) return PMPI_Send(buf, count, MPI_INT, dest, tag, MPI_COMM_WORLD);
  CallSiteRef site = intern_callsite(__builtin_return_address(0));
  Ticks t = now();
  rec->enter(t, kSend, site);
  rec->mpi_send(t, std::uint32_t(dest), kWorld, std::uint32_t(tag), count * sizeof(int));
  int rc = PMPI_Send(buf, count, MPI_INT, dest, tag, MPI_COMM_WORLD);
  rec->leave(now(), kSend);
  return rc;
}

__attribute__((noinline)) int traced_recv(int* buf, int count, int source, int tag) {
  ThreadRecorder* rec = thread_recorder();
  if (rec == nullptr) {
    return PMPI_Recv(buf, count, MPI_INT, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  CallSiteRef site = intern_callsite(__builtin_return_address(0));
  rec->enter(now(), kRecv, site);
  MPI_Status status;
  int rc = PMPI_Recv(buf, count, MPI_INT, source, tag, MPI_COMM_WORLD, &status);
  Ticks t = now();
  rec->mpi_recv(t, std::uint32_t(status.MPI_SOURCE), kWorld, std::uint32_t(status.MPI_TAG),
                count * sizeof(int));
  rec->leave(t, kRecv);
  return rc;
}

__attribute__((noinline)) int traced_barrier() {
  ThreadRecorder* rec = thread_recorder();
  if (rec == nullptr) return PMPI_Barrier(MPI_COMM_WORLD);
  CallSiteRef site = intern_callsite(__builtin_return_address(0));
  Ticks t = now();
  rec->enter(t, kBarrier, site);
  rec->mpi_collective_begin(t);
  int rc = PMPI_Barrier(MPI_COMM_WORLD);
  t = now();
  rec->mpi_collective_end(t, CollectiveOp::Barrier, kWorld, kUndefinedRank, 0, 0);
  rec->leave(t, kBarrier);
  return rc;
}

// A self-message through Irecv/Isend/Wait on MPI_COMM_SELF, so request records are exercised
// without a peer.
__attribute__((noinline)) void traced_self_exchange(int rank) {
  ThreadRecorder* rec = thread_recorder();
  int out = rank, in = -1;
  MPI_Request send_req, recv_req;
  CallSiteRef site = intern_callsite(__builtin_return_address(0));
  if (rec) rec->enter(now(), kIrecv, site);
  PMPI_Irecv(&in, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &recv_req);
  if (rec) rec->mpi_irecv_request(now(), 2);
  if (rec) rec->leave(now(), kIrecv);
  if (rec) rec->enter(now(), kIsend, site);
  if (rec) rec->mpi_isend(now(), 0, kSelf, 9, sizeof(int), 1);
  PMPI_Isend(&out, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &send_req);
  if (rec) rec->leave(now(), kIsend);
  if (rec) rec->enter(now(), kWait, site);
  PMPI_Wait(&send_req, MPI_STATUS_IGNORE);
  if (rec) rec->mpi_isend_complete(now(), 1);
  if (rec) rec->leave(now(), kWait);
  if (rec) rec->enter(now(), kWait, site);
  PMPI_Wait(&recv_req, MPI_STATUS_IGNORE);
  if (rec) rec->mpi_irecv(now(), 0, kSelf, 9, sizeof(int), 2);
  if (rec) rec->leave(now(), kWait);
}

__attribute__((noinline)) int traced_comm_rank(int* rank) {
  ThreadRecorder* rec = thread_recorder();
  if (rec == nullptr) return PMPI_Comm_rank(MPI_COMM_WORLD, rank);
  rec->enter(now(), kCommRank, intern_callsite(__builtin_return_address(0)));
  int rc = PMPI_Comm_rank(MPI_COMM_WORLD, rank);
  rec->leave(now(), kCommRank);
  return rc;
}

void worker_thread(int calls) {
  int rank = 0;
  for (int i = 0; i < calls; ++i) traced_comm_rank(&rank);  // CALLSITE thread_comm_rank
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "finalize";
  int worker_calls = argc > 2 ? std::stoi(argv[2]) : 100;
  traced_init_thread(&argc, &argv);  // CALLSITE init
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);

  int value[4] = {rank, rank, rank, rank};
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int round = 0; round < 3; ++round) {
    if (rank % 2 == 0) {
      traced_send(value, 4, right, 100 + round);  // CALLSITE send
      traced_recv(value, 4, left, 100 + round);   // CALLSITE recv
    } else {
      traced_recv(value, 4, left, 100 + round);   // CALLSITE recv_odd
      traced_send(value, 4, right, 100 + round);  // CALLSITE send_odd
    }
  }
  traced_self_exchange(rank);  // CALLSITE self_exchange
  {
    // Two threads record concurrently with the main thread (MPI_THREAD_MULTIPLE).
    std::thread first(worker_thread, worker_calls), second(worker_thread, worker_calls);
    for (int i = 0; i < 100; ++i) traced_comm_rank(&rank);  // CALLSITE main_comm_rank
    first.join();
    second.join();
  }
  traced_barrier();  // CALLSITE barrier

  if (mode == "abort" && rank == size - 1) traced_abort();
  if (mode == "exit") return 0;
  if (mode == "abort") {
    traced_barrier();  // the other ranks wait here until MPI_Abort ends the job
  }
  traced_finalize();  // CALLSITE finalize
  return 0;
}
