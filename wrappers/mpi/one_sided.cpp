#include "mpi/one_sided.h"

#include <vector>

#include "mpi/comms.h"

namespace collwrap::tracer {
namespace {

// Pairs a transfer with its completion record; per thread, as OTF2 wants (ids are per location).
RmaMatchId next_match() noexcept {
  static constinit thread_local RmaMatchId next = 0;
  return ++next;
}

// The world ranks of an MPI_Win_post/start group, in the group's order.
std::vector<std::int32_t> world_ranks_of(MPI_Group group) {
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<std::size_t>(n)), world(ranks.size(), MPI_UNDEFINED);
  for (int i = 0; i < n; ++i) ranks[static_cast<std::size_t>(i)] = i;
  MPI_Group world_group;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  PMPI_Group_translate_ranks(group, n, ranks.data(), world_group, world.data());
  PMPI_Group_free(&world_group);
  return {world.begin(), world.end()};
}

std::uint32_t target_index(const WindowEntry& w, int rank) {
  return w.comm->peer_index(rank);
}

}  // namespace

void handle_win_collective_begin(const Tracing& c) {
  c.rec.rma_collective_begin(c.entered);
}

void handle_win_created(const Tracing& c, int rc, MPI_Comm comm, const MPI_Win* win) {
  const CommEntry* entry = comm_entry(c.sem, comm);
  if (rc != MPI_SUCCESS || !win || *win == MPI_WIN_NULL || !entry) return;
  const WindowEntry& w = windows().add(*win, *entry);
  c.rec.rma_win_create(c.left, w.ref);
  c.rec.rma_collective_end(c.left, CollectiveOp::CreateHandle, RmaSyncLevel::Process, w.ref,
                           kUndefinedRank, 0, 0);
}

WindowEntry* handle_win_free_begin(const Tracing& c, const MPI_Win* win) {
  if (!win) return nullptr;
  WindowEntry* w = windows().find(*win);
  if (w) {
    c.rec.rma_collective_begin(c.entered);
    windows().forget(*win);
  }
  return w;
}

void handle_win_freed(const Tracing& c, int rc, WindowEntry* freed) {
  if (rc != MPI_SUCCESS || !freed) return;
  c.rec.rma_collective_end(c.left, CollectiveOp::DestroyHandle, RmaSyncLevel::Process, freed->ref,
                           kUndefinedRank, 0, 0);
  c.rec.rma_win_destroy(c.left, freed->ref);
}

void handle_win_fence(const Tracing& c, int rc, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  c.rec.rma_collective_end(c.left, CollectiveOp::Barrier, RmaSyncLevel::ProcessAndMemory, w->ref,
                           kUndefinedRank, 0, 0);
}

void handle_win_post(const Tracing& c, int rc, MPI_Group group, MPI_Win win) {
  WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  w->exposure_group = windows().sync_group(world_ranks_of(group));
  c.rec.rma_group_sync(c.left, RmaSyncLevel::Process, w->ref, w->exposure_group);
}

void handle_win_start(const Tracing& c, int rc, MPI_Group group, MPI_Win win) {
  WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  w->access_group = windows().sync_group(world_ranks_of(group));
  c.rec.rma_group_sync(c.left, RmaSyncLevel::Process, w->ref, w->access_group);
}

void handle_win_complete(const Tracing& c, int rc, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  c.rec.rma_group_sync(c.left, RmaSyncLevel::ProcessAndMemory, w->ref, w->access_group);
}

void handle_win_wait(const Tracing& c, int rc, MPI_Win win, const int* flag) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w || (flag && !*flag)) return;
  c.rec.rma_group_sync(c.left, RmaSyncLevel::ProcessAndMemory, w->ref, w->exposure_group);
}

void handle_win_lock(const Tracing& c, int rc, int lock_type, int rank, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  const RmaLockType type =
      lock_type == MPI_LOCK_SHARED ? RmaLockType::Shared : RmaLockType::Exclusive;
  const std::uint32_t target = target_index(*w, rank);
  c.rec.rma_request_lock(c.entered, w->ref, target, target, type);
  c.rec.rma_acquire_lock(c.left, w->ref, target, target, type);
}

void handle_win_unlock(const Tracing& c, int rc, int rank, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  const std::uint32_t target = target_index(*w, rank);
  c.rec.rma_release_lock(c.left, w->ref, target, target);
}

void handle_win_lock_all(const Tracing& c, int rc, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  c.rec.rma_request_lock(c.entered, w->ref, kUndefinedRank, kAllTargetsLock, RmaLockType::Shared);
  c.rec.rma_acquire_lock(c.left, w->ref, kUndefinedRank, kAllTargetsLock, RmaLockType::Shared);
}

void handle_win_unlock_all(const Tracing& c, int rc, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w) return;
  c.rec.rma_release_lock(c.left, w->ref, kUndefinedRank, kAllTargetsLock);
}

void handle_rma(const Tracing& c, int rc, RmaTransfer kind, int count, MPI_Datatype type,
                int fetched, int target, MPI_Win win) {
  const WindowEntry* w = windows().find(win);
  if (rc != MPI_SUCCESS || !w || target == MPI_PROC_NULL) return;
  const std::uint64_t element = count > 0 || fetched > 0 ? c.sem.type_size(type) : 0;
  const std::uint64_t sent = count > 0 ? element * static_cast<std::uint64_t>(count) : 0;
  const std::uint64_t received = fetched > 0 ? element * static_cast<std::uint64_t>(fetched) : 0;
  const std::uint32_t remote = target_index(*w, target);
  const RmaMatchId id = next_match();
  switch (kind) {
    case RmaTransfer::Put:
      c.rec.rma_put(c.entered, w->ref, remote, sent, id);
      break;
    case RmaTransfer::Get:
      c.rec.rma_get(c.entered, w->ref, remote, received, id);
      break;
    case RmaTransfer::Atomic:
      c.rec.rma_atomic(c.entered, w->ref, remote,
                       fetched > 0 ? RmaAtomicType::FetchAndAccumulate : RmaAtomicType::Accumulate,
                       sent, received, id);
      break;
  }
  c.rec.rma_op_complete_non_blocking(c.left, w->ref, id);
}

}  // namespace collwrap::tracer
