#include "mpi/comm_registry.h"

#include <cstdio>
#include <mutex>

namespace collwrap::tracer {
namespace {

// Generations are unique across all registries (see CommLookupCache).
std::atomic<std::uint64_t> g_next_generation{1};

}  // namespace

constinit thread_local CommLookupCache t_comm_lookup __attribute__((tls_model("initial-exec")));

std::uint64_t make_comm_key(std::int32_t world_rank, std::uint32_t counter) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(world_rank)) << 32) | counter;
}

CommRegistry::CommRegistry() : generation_(g_next_generation.fetch_add(1)) {}

void CommRegistry::bump_generation() noexcept {
  generation_.store(g_next_generation.fetch_add(1), std::memory_order_release);
}

const CommEntry* CommRegistry::find_and_cache(MPI_Comm comm, std::uint64_t generation) const {
  const CommEntry* entry = nullptr;
  {
    std::shared_lock lock(mutex_);
    const auto it = live_.find(comm);
    if (it != live_.end()) entry = it->second;
  }
  if (entry) t_comm_lookup = {generation, comm, entry};
  return entry;
}

const CommEntry& CommRegistry::add(MPI_Comm comm, CommFacts facts, std::uint64_t key,
                                   std::string name) {
  std::unique_lock lock(mutex_);
  CommEntry& entry = entries_.emplace_back();
  static_cast<CommFacts&>(entry) = std::move(facts);
  entry.ref = static_cast<CommRef>(entries_.size() - 1);
  entry.key = key;
  names_.push_back(std::move(name));
  live_[comm] = &entry;
  bump_generation();
  return entry;
}

void CommRegistry::forget(MPI_Comm comm) {
  std::unique_lock lock(mutex_);
  if (live_.erase(comm) != 0) bump_generation();
}

bool CommRegistry::rename(MPI_Comm comm, std::string name) {
  std::unique_lock lock(mutex_);
  const auto it = live_.find(comm);
  if (it == live_.end()) return false;
  names_[it->second->ref] = std::move(name);
  return true;
}

std::uint32_t CommRegistry::next_counter() noexcept {
  return counter_.fetch_add(1, std::memory_order_relaxed);
}

std::vector<GroupInfo> CommRegistry::snapshot() const {
  std::shared_lock lock(mutex_);
  std::vector<GroupInfo> comms;
  comms.reserve(entries_.size());
  for (const CommEntry& entry : entries_) {
    std::string name = names_[entry.ref];
    if (name.empty()) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "comm 0x%llx",
                    static_cast<unsigned long long>(entry.key));
      name = buffer;
    }
    comms.push_back(
        {entry.ref, Paradigm::Mpi, entry.key, std::move(name), entry.world_ranks, entry.topology});
  }
  return comms;
}

}  // namespace collwrap::tracer
