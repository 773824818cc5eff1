// The tracer's recording API.
//
// Two layers meet here. Above: the generated MPI wrappers and the semantic handlers, which
// know what an MPI call means (peers, bytes, communicators, requests). Below: the OTF2
// backend, which owns the timer, the per-thread event writers, call-site interning and
// resolution, clock synchronization and the archive's definitions. Neither layer includes
// the other's headers; they only share this file.
//
// Everything here is noexcept: the tracer never throws into the application. When tracing
// is off (no MPI_Init yet, after MPI_Finalize, or after an internal error disabled it),
// thread_recorder() returns nullptr and the wrapper simply calls the PMPI function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collwrap::tracer {

using Ticks = std::uint64_t;        // raw timer value, see timer_resolution()
using RegionRef = std::uint32_t;    // index into the generated function table; same on every rank
using CommRef = std::uint32_t;      // process-local communicator id (CommRegistry)
using RequestId = std::uint64_t;    // tracer-assigned, unique per process, never reused
using CallSiteRef = std::uint32_t;  // process-local id of a deduplicated return-address chain

inline constexpr std::uint32_t kNoRank = 0xFFFFFFFFu;  // OTF2_UNDEFINED_UINT32 / ROOT_NONE
inline constexpr std::uint32_t kRootSelf = 0xFFFFFFFEu;  // OTF2_COLLECTIVE_ROOT_SELF (intercomm)

// The timer chosen by COLLWRAP_TIMER. Cheap enough for every event.
Ticks now() noexcept;

// Values of OTF2_CollectiveOp; kept numerically identical so the backend can cast.
enum class CollectiveOp : std::uint8_t {
  Barrier = 0, Bcast = 1, Gather = 2, Gatherv = 3, Scatter = 4, Scatterv = 5,
  Allgather = 6, Allgatherv = 7, Alltoall = 8, Alltoallv = 9, Alltoallw = 10,
  Allreduce = 11, Reduce = 12, ReduceScatter = 13, Scan = 14, Exscan = 15,
  ReduceScatterBlock = 16, CreateHandle = 17, DestroyHandle = 18,
};

// One location (a thread of a rank). Methods append one OTF2 record each.
// Ranks (receiver/sender/root) are ranks within `comm`, as OTF2 requires.
class ThreadRecorder {
 public:
  void enter(Ticks t, RegionRef region, CallSiteRef site) noexcept;
  void leave(Ticks t, RegionRef region) noexcept;

  void mpi_send(Ticks t, std::uint32_t receiver, CommRef comm, std::uint32_t tag,
                std::uint64_t bytes) noexcept;
  void mpi_isend(Ticks t, std::uint32_t receiver, CommRef comm, std::uint32_t tag,
                 std::uint64_t bytes, RequestId req) noexcept;
  void mpi_isend_complete(Ticks t, RequestId req) noexcept;
  void mpi_irecv_request(Ticks t, RequestId req) noexcept;
  void mpi_recv(Ticks t, std::uint32_t sender, CommRef comm, std::uint32_t tag,
                std::uint64_t bytes) noexcept;
  void mpi_irecv(Ticks t, std::uint32_t sender, CommRef comm, std::uint32_t tag,
                 std::uint64_t bytes, RequestId req) noexcept;
  void mpi_request_test(Ticks t, RequestId req) noexcept;
  void mpi_request_cancelled(Ticks t, RequestId req) noexcept;

  void mpi_collective_begin(Ticks t) noexcept;
  void mpi_collective_end(Ticks t, CollectiveOp op, CommRef comm, std::uint32_t root,
                          std::uint64_t sent, std::uint64_t received) noexcept;
  void nbc_request(Ticks t, RequestId req) noexcept;
  void nbc_complete(Ticks t, CollectiveOp op, CommRef comm, std::uint32_t root,
                    std::uint64_t sent, std::uint64_t received, RequestId req) noexcept;

  // Backend state lives behind this pointer (defined in the backend).
  struct State;
  State* state = nullptr;
};

// The calling thread's recorder, created on first use after MPI_Init; nullptr when not tracing.
ThreadRecorder* thread_recorder() noexcept;

// Interns the call site of the current MPI call. `return_address` is the wrapper's
// __builtin_return_address(0); with COLLWRAP_CALLSITE_DEPTH > 1 the backend unwinds further.
// A hash lookup at most: resolution to file/line/function happens at finalize.
CallSiteRef intern_callsite(void* return_address) noexcept;

// Lifecycle, called by the MPI_Init/_thread, MPI_Finalize and MPI_Abort wrappers.
// init_enter runs before PMPI_Init (only takes the time); init_leave after it: it creates the
// archive, synchronizes clocks, and records the Init region. finalize_enter runs before
// PMPI_Finalize: it records the Finalize region, synchronizes clocks again, unifies the
// definitions and closes the archive; tracing is off afterwards.
void init_enter(RegionRef region, void* return_address) noexcept;
void init_leave(int provided_thread_level) noexcept;
void finalize_enter(RegionRef region, void* return_address) noexcept;
void abort_enter(RegionRef region, void* return_address) noexcept;
// Called by every rank after each MPI_Barrier on MPI_COMM_WORLD, traced or not (the ranks must
// agree): with COLLWRAP_CLOCKSYNC_INTERVAL set, re-measures the clock offsets once that many
// seconds have passed since the last measurement, so that readers interpolate drift piecewise.
void clock_checkpoint() noexcept;

// The generated function table (one entry per wrapped MPI function, index = RegionRef), so the
// backend can write one Region definition per function. `role` is an OTF2_RegionRole value.
struct FunctionInfo {
  const char* name;
  std::uint8_t role;
};
extern const FunctionInfo kFunctionTable[];
extern const std::uint32_t kFunctionCount;

// Implemented by the semantic layer (CommRegistry); read by the backend at finalize to write
// Comm and Group definitions. `key` is the same on every member of the communicator
// (world rank of its rank 0 << 32 | that rank's creation counter), so it unifies across ranks.
struct CommInfo {
  CommRef id;
  std::uint64_t key;
  std::string name;
  std::vector<std::int32_t> world_ranks;  // index = rank in the communicator
};
std::vector<CommInfo> comm_registry_snapshot();

}  // namespace collwrap::tracer
