// One-sided communication (MPI RMA): windows, transfers and synchronization recorded as OTF2's
// Rma* records, as Score-P's MPI RMA adapter writes them, so that readers analyze MPI windows
// like OpenSHMEM's symmetric heap.
//
//   MPI_Win_create/allocate(_shared)/create_dynamic  RmaCollectiveBegin, RmaWinCreate,
//                                                    RmaCollectiveEnd (CREATE_HANDLE)
//   MPI_Win_free                                     RmaCollectiveBegin, RmaCollectiveEnd
//                                                    (DESTROY_HANDLE), RmaWinDestroy
//   MPI_Win_fence                                    RmaCollectiveBegin/End (BARRIER)
//   MPI_Win_post/start/complete/wait/test            RmaGroupSync with the epoch's group
//   MPI_Win_lock(_all)/unlock(_all)                  RmaRequestLock at the call's start,
//                                                    RmaAcquireLock at its end; RmaReleaseLock
//   MPI_Put/Get/Accumulate/… and MPI_R…              RmaPut/RmaGet/RmaAtomic with target and
//                                                    bytes, RmaOpCompleteNonBlocking (issued;
//                                                    MPI completes them at the next sync)
//
// A window lock is the lock of one target rank of the window: its OTF2 lock id is that rank
// (MPI_Win_lock_all's is kAllTargetsLock, with no remote rank).
#pragma once

#include <mpi.h>

#include "mpi/semantics.h"
#include "mpi/windows.h"

namespace collwrap::tracer {

inline constexpr std::uint64_t kAllTargetsLock = 0xFFFFFFFFu;

// Window creation (all four forms), before and after the PMPI call.
void handle_win_collective_begin(const Tracing& c);
void handle_win_created(const Tracing& c, int rc, MPI_Comm comm, const MPI_Win* win);
// MPI_Win_free: the entry is looked up before the PMPI call nulls the handle.
WindowEntry* handle_win_free_begin(const Tracing& c, const MPI_Win* win);
void handle_win_freed(const Tracing& c, int rc, WindowEntry* freed);

void handle_win_fence(const Tracing& c, int rc, MPI_Win win);
void handle_win_post(const Tracing& c, int rc, MPI_Group group, MPI_Win win);
void handle_win_start(const Tracing& c, int rc, MPI_Group group, MPI_Win win);
void handle_win_complete(const Tracing& c, int rc, MPI_Win win);
// MPI_Win_wait, and MPI_Win_test when it sets `flag` (the exposure epoch ended).
void handle_win_wait(const Tracing& c, int rc, MPI_Win win, const int* flag = nullptr);

void handle_win_lock(const Tracing& c, int rc, int lock_type, int rank, MPI_Win win);
void handle_win_unlock(const Tracing& c, int rc, int rank, MPI_Win win);
void handle_win_lock_all(const Tracing& c, int rc, MPI_Win win);
void handle_win_unlock_all(const Tracing& c, int rc, MPI_Win win);

// A transfer: `count` elements of `type` (bytes) to or from `target`. Atomics (accumulate,
// fetch-and-op, compare-and-swap) send `count` elements and receive `fetched` of them.
enum class RmaTransfer : std::uint8_t { Put, Get, Atomic };
void handle_rma(const Tracing& c, int rc, RmaTransfer kind, int count, MPI_Datatype type,
                int fetched, int target, MPI_Win win);

}  // namespace collwrap::tracer
