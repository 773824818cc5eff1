// The semantic layer's part of MPI_Init(_thread) and MPI_Finalize; the recording layer's part
// is init_enter/init_leave/finalize_enter (recorder.h).
#pragma once

namespace collwrap::tracer {

// After PMPI_Init(_thread): registers MPI_COMM_WORLD and MPI_COMM_SELF, then lets the
// recording layer start tracing (init_leave) over MPI_COMM_WORLD. `provided` is
// MPI_Init_thread's; nullptr for MPI_Init.
void handle_init(const char* mpi_function, int rc, const int* provided) noexcept;

// Before PMPI_Finalize, after the recording layer closed the archive: communicator bookkeeping
// stops.
void handle_finalize() noexcept;

}  // namespace collwrap::tracer
