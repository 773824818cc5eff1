// CommRegistry: which communicators this process knows, who is in each, and the key that names
// a communicator identically on all of its members (so the recording layer can unify
// definitions).
//
// Records refer to a communicator by its CommRef, the index of its entry here. Entries are never
// removed: a freed communicator still needs its definition at finalize, and MPI may hand out the
// freed handle again, so only the handle → entry mapping goes away at MPI_Comm_free.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "record/recorder.h"

namespace collwrap::tracer {

// In records, an MPI communicator is a group of processes.
using CommRef = GroupRef;

// What the tracer needs to know about a communicator, asked from MPI once when it is created.
struct CommFacts {
  bool inter = false;
  std::int32_t size = 0;         // local group
  std::int32_t rank = 0;         // this process in the local group
  std::int32_t remote_size = 0;  // intercommunicators
  // The group of the trace's Comm definition in MPI_COMM_WORLD ranks; index = the rank records
  // give. Intracommunicators: the group itself. Intercommunicators: both groups, see
  // remote_index. -1 for a process outside this job's MPI_COMM_WORLD (dynamic processes).
  std::vector<std::int32_t> world_ranks;
  // Intercommunicators: remote rank → index into world_ranks.
  std::vector<std::uint32_t> remote_index;
  // Topology communicators: one flag per neighbor slot of the neighborhood collectives'
  // buffers (in-neighbors, out-neighbors); false where a Cartesian shift leaves a non-periodic
  // grid (MPI_PROC_NULL), because no data moves there.
  std::vector<bool> in_neighbors;
  std::vector<bool> out_neighbors;
  // Topology communicators: the topology itself, for the trace's definitions.
  GroupTopology topology;
};

struct CommEntry : CommFacts {
  CommRef ref = 0;
  std::uint64_t key = 0;

  // The rank records give for a peer passed to MPI as `rank` (on an intercommunicator, MPI
  // ranks of peers are remote ranks). kUndefinedRank if out of range. Inline: every message record
  // asks.
  std::uint32_t peer_index(int rank) const noexcept {
    if (rank < 0) return kUndefinedRank;
    const auto r = static_cast<std::size_t>(rank);
    if (!inter) return r < world_ranks.size() ? static_cast<std::uint32_t>(r) : kUndefinedRank;
    return r < remote_index.size() ? remote_index[r] : kUndefinedRank;
  }
};

// A key agreed among the communicator's members: rank 0's world rank and creation counter.
std::uint64_t make_comm_key(std::int32_t world_rank, std::uint32_t counter) noexcept;

// Set in keys this process chose alone (a communicator it learned about only from its use, or
// one shared with another job): such a key may differ between the members. Bit 63 is free
// because world ranks are below 2^31.
inline constexpr std::uint64_t kLocalCommKey = std::uint64_t{1} << 63;

// Creation counters 0 and 1 belong to MPI_COMM_WORLD and MPI_COMM_SELF.
inline constexpr std::uint32_t kWorldCounter = 0;
inline constexpr std::uint32_t kSelfCounter = 1;

// A thread's last successful CommRegistry::find. Its generation is the registry's at the time
// of the lookup; generations are unique across registries, so a cached lookup can never be
// taken for one of another (or a destroyed and recreated) registry.
struct CommLookupCache {
  std::uint64_t generation = 0;
  MPI_Comm comm{};
  const CommEntry* entry = nullptr;
};
// constinit and initial-exec: the inline find() reads it with one thread-pointer-relative load,
// without a call or a thread-local initialization check.
extern constinit thread_local CommLookupCache t_comm_lookup
    __attribute__((tls_model("initial-exec")));

class CommRegistry {
 public:
  CommRegistry();

  // The entry of a live communicator handle, or nullptr. Cheap when a thread keeps using the
  // same communicator: a thread-local cache is checked against the registry's generation, which
  // every change of the handle mapping renews. Inline because every message record asks.
  const CommEntry* find(MPI_Comm comm) const {
    // Read the generation before looking up: a change after this read makes the cached
    // generation stale, so the next call looks up again.
    const std::uint64_t generation = generation_.load(std::memory_order_acquire);
    const CommLookupCache& cached = t_comm_lookup;
    if (cached.generation == generation && cached.comm == comm) return cached.entry;
    return find_and_cache(comm, generation);
  }

  // Registers `comm` (replacing the mapping of a reused handle) and returns its entry.
  const CommEntry& add(MPI_Comm comm, CommFacts facts, std::uint64_t key, std::string name = {});

  // The handle was freed; its entry stays for the definitions.
  void forget(MPI_Comm comm);

  // MPI_Comm_set_name: the name the definitions use. False if `comm` is unknown.
  bool rename(MPI_Comm comm, std::string name);

  // This process's next creation counter, for make_comm_key.
  std::uint32_t next_counter() noexcept;

  // Every communicator ever registered, for the recording layer's definitions. Unnamed ones are
  // called "comm 0x<key>".
  std::vector<GroupInfo> snapshot() const;

 private:
  // find() past the thread's cache: the map under the lock; caches a hit under `generation`.
  const CommEntry* find_and_cache(MPI_Comm comm, std::uint64_t generation) const;
  void bump_generation() noexcept;

  mutable std::shared_mutex mutex_;
  std::deque<CommEntry> entries_;   // index = CommRef; a deque keeps entries in place
  std::vector<std::string> names_;  // index = CommRef
  std::unordered_map<MPI_Comm, const CommEntry*> live_;
  std::atomic<std::uint64_t> generation_;
  std::atomic<std::uint32_t> counter_{kSelfCounter + 1};
};

}  // namespace collwrap::tracer
