// The OpenSHMEM adapter's groups and windows: the world (every PE) and each active set
// (PE_start, logPE_stride, PE_size) a collective named, each an OTF2 Comm plus an RMA window
// over the symmetric heap, as Score-P's OpenSHMEM adapter defines them. One-sided records name
// the world window with the target PE as remote rank; collectives name their active set's.
#pragma once

#include <cstdint>

#include "record/recorder.h"

namespace collwrap::tracer {

// GroupRefs and WindowRefs of this adapter start here, clear of the MPI adapter's.
inline constexpr std::uint32_t kShmemFirstRef = 0x40000000u;
inline constexpr WindowRef kShmemWorldWindow = kShmemFirstRef;

// Called after shmem_init: defines the world group and window over `n_pes` PEs.
void start_active_sets(int my_pe, int n_pes) noexcept;
// The window of an active set (the world window when it covers every PE); defines it on first
// use. Only PEs in the set call this, all with the same triple, so keys agree.
WindowRef active_set_window(int pe_start, int log_pe_stride, int pe_size) noexcept;
// The groups and windows defined so far (a DefinitionsSource).
AdapterDefinitions shmem_definitions();

// A key the same on every member of the active set, different for every set.
std::uint64_t active_set_key(int pe_start, int log_pe_stride, int pe_size) noexcept;

}  // namespace collwrap::tracer
