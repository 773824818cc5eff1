// The OpenSHMEM adapter's start and end of tracing, called by the generated wrappers of
// shmem_init, shmem_init_thread and shmem_finalize. A pure OpenSHMEM program starts tracing at
// shmem_init over a ShmemProcessGroup (clock offsets measured over OpenSHMEM). In a hybrid
// program whose MPI_Init came first, tracing is already on: shmem_init is recorded as an
// ordinary call, the archive and its clock stay MPI's, and whichever finalize comes first
// closes it.
#pragma once

#include "record/recorder.h"

namespace collwrap::tracer {

void shmem_init_enter(RegionRef region, void* return_address) noexcept;
void shmem_init_leave(RegionRef region, bool initialized) noexcept;
void shmem_finalize_enter(RegionRef region, void* return_address) noexcept;

namespace shmem {

// This PE and the number of PEs, known from shmem_init on.
int my_pe() noexcept;
int world_size() noexcept;

}  // namespace shmem
}  // namespace collwrap::tracer
