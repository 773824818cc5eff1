// The MPI adapter's one-sided bookkeeping: which windows this process knows (each an OTF2 RmaWin
// over its communicator) and the process groups of general active target synchronization
// (MPI_Win_post/start), each an OTF2 Group plus Comm so that RmaGroupSync records can name it.
//
// Keys need no communication. A window's key is its communicator's key and the window's
// creation index on that communicator: window creation is collective, so every member counts
// the same windows in the same order (Score-P numbers windows per communicator the same way).
// A synchronization group's key is its member list, the same on every process that names it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "mpi/comm_registry.h"
#include "record/recorder.h"

namespace collwrap::tracer {

// WindowRefs and the GroupRefs of synchronization groups start here, clear of CommRefs (which
// count up from 0) and of the OpenSHMEM adapter's refs (0x40000000).
inline constexpr std::uint32_t kMpiWindowFirstRef = 0x20000000u;
inline constexpr std::uint32_t kMpiSyncGroupFirstRef = 0x30000000u;

struct WindowEntry {
  WindowRef ref = 0;
  const CommEntry* comm = nullptr;
  // The groups of the open general-active-target epochs (MPI_Win_start's targets,
  // MPI_Win_post's origins), for the records of MPI_Win_complete and MPI_Win_wait.
  GroupRef access_group = 0;
  GroupRef exposure_group = 0;
};

// Pure key arithmetic, testable without MPI.
std::uint64_t window_key(std::uint64_t comm_key, std::uint32_t index) noexcept;
std::uint64_t sync_group_key(const std::vector<std::int32_t>& world_ranks) noexcept;

// The process's windows. Thread-safe; entries stay in place until the process exits.
class WindowRegistry {
 public:
  // A window created over `comm` (its members call this in the same order).
  WindowEntry& add(MPI_Win win, const CommEntry& comm);
  // The entry of a live window handle, or nullptr.
  WindowEntry* find(MPI_Win win);
  // MPI_Win_free: the handle goes, the entry stays for the definitions.
  void forget(MPI_Win win);
  // The GroupRef of a synchronization group given by its members' world ranks.
  GroupRef sync_group(const std::vector<std::int32_t>& world_ranks);
  // The windows and synchronization groups, for the archive's definitions.
  AdapterDefinitions snapshot() const;
};

WindowRegistry& windows() noexcept;

}  // namespace collwrap::tracer
