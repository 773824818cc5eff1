// The MPI semantic layer's process-wide state and the context every handler gets.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>

#include "mpi/comm_registry.h"
#include "mpi/message_table.h"
#include "mpi/mpi_queries.h"
#include "mpi/request_table.h"
#include "mpi/type_size_cache.h"
#include "record/recorder.h"

namespace collwrap::tracer {

class Semantics {
 public:
  explicit Semantics(MpiQueries& queries) : mpi(queries) {}
  Semantics(const Semantics&) = delete;
  Semantics& operator=(const Semantics&) = delete;

  MpiQueries& mpi;
  CommRegistry comms;
  RequestTable requests;
  MessageTable messages;
  TypeSizeCache type_sizes;

  // Bytes per element of `type` (MpiQueries::type_size), from this thread's cache if it can.
  std::uint64_t type_size(MPI_Datatype type) { return type_sizes.size(mpi, type); }

  // Set between MPI_Init and MPI_Finalize on every rank, traced or not: communicator
  // bookkeeping communicates, so it must run on all members alike.
  bool active() const noexcept { return active_.load(std::memory_order_acquire); }
  std::int32_t world_rank() const noexcept { return world_rank_; }
  void start(std::int32_t world_rank) noexcept {
    world_rank_ = world_rank;
    active_.store(true, std::memory_order_release);
  }
  void stop() noexcept { active_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> active_{false};
  std::int32_t world_rank_ = 0;
};

// Creates the process's state, answering through PMPI; only semantics() calls it.
Semantics& create_process_semantics() noexcept;

// The process's state. Created on first use and never destroyed: MPI calls may still come from
// atexit handlers and other threads while the process exits. Inline, because every wrapper with
// semantics asks: after the first call, a guard check instead of a call.
[[gnu::always_inline]] inline Semantics& semantics() noexcept {
  static Semantics& instance = create_process_semantics();
  return instance;
}

// MPI_Type_free (before the PMPI call): the handle may come back for another type.
inline void handle_type_freed(Semantics& sem) noexcept {
  sem.type_sizes.forget_all();
}

// What a handler needs for one MPI call: where to record, the process's state, and the times
// of the call's Enter and Leave records. Every record of a call reuses one of those two times
// instead of reading the clock again: a read costs as much as a small record, and OTF2 writes a
// record that shares the previous record's time without a timestamp of its own. Records that
// describe what the call started (MpiSend, MpiIsend, MpiIrecvRequest, MpiCollectiveBegin, a
// nonblocking collective's request) take `entered`; records of what it completed (MpiRecv,
// completions, unsuccessful tests, MpiCollectiveEnd) take `left`, which the wrapper sets when
// the PMPI function returns, before the handlers that run after it.
struct Tracing {
  ThreadRecorder& rec;
  Semantics& sem;
  Ticks entered = 0;
  Ticks left = 0;
};

// Reports the first internal failure as one `collwrap:` line on stderr; the program goes on.
void report_internal_error(const char* mpi_function, const char* what) noexcept;

// Runs a handler so that nothing it throws reaches the application.
template <class Handler>
void guarded(const char* mpi_function, Handler&& handler) noexcept {
  try {
    handler();
  } catch (const std::exception& e) {
    report_internal_error(mpi_function, e.what());
  } catch (...) {
    report_internal_error(mpi_function, "unknown exception");
  }
}

}  // namespace collwrap::tracer
