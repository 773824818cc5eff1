// The tracer's recording API, the same for every parallel programming paradigm.
//
// Two layers meet here, as in Score-P's event layer (SCOREP_Events.h). Above: a paradigm
// adapter (wrappers/mpi/: the generated MPI wrappers and their semantics), which knows what a
// call means (peers, bytes, communicators, requests). Below: this recording layer, which owns
// the timer, the per-thread event logs and their OTF2 event writers, the region tables,
// call-site interning and resolution, clock synchronization and the archive's definitions. The adapter calls the
// functions declared here and implements ProcessGroup (process_group.h), through which the
// recording layer does all its own communication; the recording layer includes nothing of an
// adapter.
//
// Everything here is noexcept: the tracer never throws into the application. When tracing
// is off (before the paradigm's initialization, after its finalization, or after an internal
// error disabled it), thread_recorder() returns nullptr and the wrapper simply calls the
// paradigm's own function.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace collwrap::tracer {

class ProcessGroup;

using Ticks = std::uint64_t;        // raw timer value, see timer_resolution()
using RegionRef = std::uint32_t;    // see register_regions; same on every process
using GroupRef = std::uint32_t;     // process-local id of a group of processes (an OTF2 Comm)
using WindowRef = std::uint32_t;    // process-local id of an RMA window (an OTF2 RmaWin)
using RequestId = std::uint64_t;    // tracer-assigned, unique per process, never reused
using RmaMatchId = std::uint64_t;   // pairs an RMA operation with its completion record
using CallSiteRef = std::uint32_t;  // process-local id of a deduplicated return-address chain

// OTF2_UNDEFINED_UINT32: a peer or root rank that does not exist (no root, MPI_PROC_NULL).
inline constexpr std::uint32_t kUndefinedRank = 0xFFFFFFFFu;
inline constexpr std::uint32_t kRootSelf = 0xFFFFFFFEu;  // OTF2_COLLECTIVE_ROOT_SELF (intercomm)

// The paradigms that have an adapter or are about to; values of OTF2_Paradigm.
enum class Paradigm : std::uint8_t { Mpi = 4, Upc = 12, Shmem = 13 };

// The timer chosen by COLLWRAP_TIMER. Cheap enough for every event: inline, so that with the
// TSC (the default where it is invariant) a read is one flag test and one `rdtsc`, without a
// call; the other timers go through now_other_timer().
namespace detail {
extern constinit std::atomic<bool> g_timer_is_tsc;
}  // namespace detail
Ticks now_other_timer() noexcept;
inline Ticks now() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  if (detail::g_timer_is_tsc.load(std::memory_order_relaxed)) [[likely]]
    return __builtin_ia32_rdtsc();
#endif
  return now_other_timer();
}

// Values of OTF2_CollectiveOp; kept numerically identical so the recording layer can cast.
enum class CollectiveOp : std::uint8_t {
  Barrier = 0,
  Bcast = 1,
  Gather = 2,
  Gatherv = 3,
  Scatter = 4,
  Scatterv = 5,
  Allgather = 6,
  Allgatherv = 7,
  Alltoall = 8,
  Alltoallv = 9,
  Alltoallw = 10,
  Allreduce = 11,
  Reduce = 12,
  ReduceScatter = 13,
  Scan = 14,
  Exscan = 15,
  ReduceScatterBlock = 16,
  CreateHandle = 17,
  DestroyHandle = 18,
};

// Values of OTF2_RmaSyncLevel (a bit set), OTF2_RmaSyncType, OTF2_LockType, OTF2_RmaAtomicType.
enum class RmaSyncLevel : std::uint32_t { None = 0, Process = 1, Memory = 2, ProcessAndMemory = 3 };
enum class RmaSyncType : std::uint8_t { Memory = 0, NotifyIn = 1, NotifyOut = 2 };
enum class RmaLockType : std::uint8_t { Exclusive = 0, Shared = 1 };
enum class RmaAtomicType : std::uint8_t {
  Accumulate = 0,
  Increment = 1,
  TestAndSet = 2,
  CompareAndSwap = 3,
  Swap = 4,
  FetchAndAdd = 5,
  FetchAndIncrement = 6,
  FetchAndAccumulate = 7,
};

// One location (a thread of a process). Methods append one record each to the thread's event
// log (event_log.h), which becomes the same OTF2 record when the log is written out. Ranks
// (receiver/sender/root/remote) are ranks within the group or window's group, as OTF2 requires.
class ThreadRecorder {
 public:
  void enter(Ticks t, RegionRef region, CallSiteRef site) noexcept;
  // The Enter of a wrapper called from `return_address` (its __builtin_return_address(0)):
  // interns the call site only when it may differ from the previous Enter of the region's, so
  // a call in a loop costs one comparison (see intern_callsite).
  void enter_from(Ticks t, RegionRef region, void* return_address) noexcept;
  // The Enter of a profiling-control call (MPI_Pcontrol, shmem_pcontrol): carries the level
  // argument as the PcontrolLevel attribute (INT32), which marks the region of interest.
  void enter_with_level(Ticks t, RegionRef region, CallSiteRef site, std::int32_t level) noexcept;
  void leave(Ticks t, RegionRef region) noexcept;

  // Message passing (OTF2's Mpi* records; `comm` is a GroupRef).
  void mpi_send(Ticks t, std::uint32_t receiver, GroupRef comm, std::uint32_t tag,
                std::uint64_t bytes) noexcept;
  void mpi_isend(Ticks t, std::uint32_t receiver, GroupRef comm, std::uint32_t tag,
                 std::uint64_t bytes, RequestId req) noexcept;
  void mpi_isend_complete(Ticks t, RequestId req) noexcept;
  void mpi_irecv_request(Ticks t, RequestId req) noexcept;
  void mpi_recv(Ticks t, std::uint32_t sender, GroupRef comm, std::uint32_t tag,
                std::uint64_t bytes) noexcept;
  void mpi_irecv(Ticks t, std::uint32_t sender, GroupRef comm, std::uint32_t tag,
                 std::uint64_t bytes, RequestId req) noexcept;
  void mpi_request_test(Ticks t, RequestId req) noexcept;
  void mpi_request_cancelled(Ticks t, RequestId req) noexcept;

  void mpi_collective_begin(Ticks t) noexcept;
  void mpi_collective_end(Ticks t, CollectiveOp op, GroupRef comm, std::uint32_t root,
                          std::uint64_t sent, std::uint64_t received) noexcept;
  void nbc_request(Ticks t, RequestId req) noexcept;
  void nbc_complete(Ticks t, CollectiveOp op, GroupRef comm, std::uint32_t root, std::uint64_t sent,
                    std::uint64_t received, RequestId req) noexcept;

  // One-sided communication (OTF2's Rma* records), for OpenSHMEM, UPC and MPI windows.
  void rma_win_create(Ticks t, WindowRef win) noexcept;
  void rma_win_destroy(Ticks t, WindowRef win) noexcept;
  void rma_put(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
               RmaMatchId match) noexcept;
  void rma_get(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t bytes,
               RmaMatchId match) noexcept;
  void rma_atomic(Ticks t, WindowRef win, std::uint32_t remote, RmaAtomicType type,
                  std::uint64_t sent, std::uint64_t received, RmaMatchId match) noexcept;
  void rma_op_complete_blocking(Ticks t, WindowRef win, RmaMatchId match) noexcept;
  void rma_op_complete_non_blocking(Ticks t, WindowRef win, RmaMatchId match) noexcept;
  void rma_op_complete_remote(Ticks t, WindowRef win, RmaMatchId match) noexcept;
  void rma_collective_begin(Ticks t) noexcept;
  // `upc_sync`, when not 0, is written as the UpcSyncFlags attribute (UINT32): a UPC
  // collective's synchronization modes, bits 0-1 on entry and 2-3 on exit, each 1 = NOSYNC,
  // 2 = MYSYNC, 3 = ALLSYNC.
  void rma_collective_end(Ticks t, CollectiveOp op, RmaSyncLevel level, WindowRef win,
                          std::uint32_t root, std::uint64_t sent, std::uint64_t received,
                          std::uint32_t upc_sync = 0) noexcept;
  void rma_group_sync(Ticks t, RmaSyncLevel level, WindowRef win, GroupRef group) noexcept;
  void rma_request_lock(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t lock,
                        RmaLockType type) noexcept;
  void rma_acquire_lock(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t lock,
                        RmaLockType type) noexcept;
  void rma_try_lock(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t lock,
                    RmaLockType type) noexcept;
  void rma_release_lock(Ticks t, WindowRef win, std::uint32_t remote, std::uint64_t lock) noexcept;
  void rma_sync(Ticks t, WindowRef win, std::uint32_t remote, RmaSyncType type) noexcept;
  void rma_wait_change(Ticks t, WindowRef win) noexcept;

  // Recording state lives behind this pointer (defined in the recording layer).
  struct State;
  State* state = nullptr;
};

// The calling thread's recorder, created on first use once recording started; nullptr when not
// tracing. Inline: every wrapper asks, so the common case is two loads (the process's recording
// flag and an initial-exec thread-local pointer) without a call.
namespace detail {
extern constinit std::atomic<bool> g_recording;
extern constinit thread_local ThreadRecorder* t_recorder __attribute__((tls_model("initial-exec")));
ThreadRecorder* attach_thread_recorder() noexcept;
}  // namespace detail
inline ThreadRecorder* thread_recorder() noexcept {
  if (!detail::g_recording.load(std::memory_order_acquire)) return nullptr;
  if (ThreadRecorder* recorder = detail::t_recorder) [[likely]]
    return recorder;
  return detail::attach_thread_recorder();
}

// Interns the call site of the current traced call. `return_address` is the wrapper's
// __builtin_return_address(0); with COLLWRAP_CALLSITE_DEPTH > 1 the recording layer unwinds
// further. A hash lookup at most: resolution to file/line/function happens at finalize.
CallSiteRef intern_callsite(void* return_address) noexcept;

// An adapter's region table: one entry per wrapped function. `role` is an OTF2_RegionRole.
struct RegionInfo {
  const char* name;
  std::uint8_t role;
};
struct RegionTable {
  Paradigm paradigm;
  std::span<const RegionInfo> regions;
};

// Registers an adapter's regions under its paradigm; entry i of the table is RegionRef
// first + i, where first is the returned value. Every process must register the same tables
// in the same order (static initializers do), so that RegionRefs need no unification. Call
// before recording starts; at most 8 tables.
RegionRef register_regions(Paradigm paradigm, std::span<const RegionInfo> regions) noexcept;

// Lifecycle, called by the adapter's wrappers of its init, finalize and abort functions.
// init_enter runs before the paradigm's initialization (only takes the time); init_leave after
// it, on every process of `group`: it creates the archive, synchronizes clocks, and records the
// init region. finalize_enter runs before the paradigm's finalization: it records the finalize
// region, synchronizes clocks again, unifies the definitions and closes the archive (and
// destroys the group); tracing is off afterwards. abort_enter saves what this process has for
// collwrap-recover.
void init_enter(RegionRef region, void* return_address) noexcept;
void init_leave(std::unique_ptr<ProcessGroup> group) noexcept;
void finalize_enter(RegionRef region, void* return_address) noexcept;
void abort_enter(RegionRef region, void* return_address) noexcept;
// While recording: this process's rank and the number of processes of the group that started
// tracing (false when not recording). For adapters that ride on another's start, such as the
// GASP (UPC) entry points when the UPC runtime runs over MPI.
bool traced_processes(int& rank, int& size) noexcept;
// Called by every process at a synchronization of all of them, traced or not (the processes
// must agree), e.g. an MPI_Barrier on MPI_COMM_WORLD: with COLLWRAP_CLOCKSYNC_INTERVAL set,
// re-measures the clock offsets once that many seconds have passed since the last measurement,
// so that readers interpolate drift piecewise. `where` names the call in verbose output.
void clock_checkpoint(const char* where) noexcept;

// A group of processes (MPI communicator, OpenSHMEM team, UPC thread set), written as an OTF2
// Group of the paradigm plus a Comm. `key` is the same on every member (and differs between
// groups), so the definitions unify across processes.
// A group's virtual topology as one member sees it (MPI's Cartesian, graph and distributed-graph
// communicators), so that readers know whom each member exchanges with in neighborhood
// collectives. Cartesian: written as OTF2 CartDimension/CartTopology/CartCoordinate. Graphs:
// this member's in- and out-neighbors, written as Groups named by LocationGroupProperty.
struct GroupTopology {
  enum class Kind : std::uint8_t { None, Cartesian, Graph };
  Kind kind = Kind::None;
  std::vector<std::uint32_t> dims;          // Cartesian: size per dimension
  std::vector<std::uint8_t> periodic;       // Cartesian: 1 where the dimension wraps around
  std::vector<std::uint32_t> coords;        // Cartesian: this member's coordinates
  std::vector<std::int32_t> in_neighbors;   // Graph: ranks in the group, in MPI's order
  std::vector<std::int32_t> out_neighbors;  // Graph: ranks in the group, in MPI's order

  bool operator==(const GroupTopology&) const = default;
};

struct GroupInfo {
  GroupRef id;
  Paradigm paradigm;
  std::uint64_t key;
  std::string name;
  std::vector<std::int32_t> members;  // index = rank in the group; value = process (world) rank
  GroupTopology topology = {};
};

// An RMA window over a group (OpenSHMEM's symmetric heap over a team, an MPI window), written
// as an OTF2 RmaWin. `key` as for groups.
struct WindowInfo {
  WindowRef id;
  std::uint64_t key;
  std::string name;
  GroupRef group;
};

// The groups and windows an adapter knows, read at finalize and when saving for recovery.
// Ids must be unique within the process across adapters.
struct AdapterDefinitions {
  std::vector<GroupInfo> groups;
  std::vector<WindowInfo> windows;
};
using DefinitionsSource = AdapterDefinitions (*)();
// At most 8 sources; call before recording starts.
void register_definitions_source(DefinitionsSource source) noexcept;

}  // namespace collwrap::tracer
