#include "mpi/windows.h"

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace collwrap::tracer {
namespace {

// splitmix64's finalizer: spreads a combination of small numbers over all 64 bits.
std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Registry {
  std::mutex mutex;
  std::deque<WindowEntry> entries;  // index = ref − kMpiWindowFirstRef
  std::vector<std::uint64_t> keys;  // per entry
  std::unordered_map<MPI_Win, WindowEntry*> live;
  std::unordered_map<CommRef, std::uint32_t> created_on;  // windows created per communicator
  std::map<std::vector<std::int32_t>, GroupRef> groups;
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: MPI calls may come at exit
  return *instance;
}

}  // namespace

std::uint64_t window_key(std::uint64_t comm_key, std::uint32_t index) noexcept {
  return mix(comm_key ^ mix(index));
}

std::uint64_t sync_group_key(const std::vector<std::int32_t>& world_ranks) noexcept {
  std::uint64_t key = mix(world_ranks.size());
  for (const std::int32_t r : world_ranks) key = mix(key ^ static_cast<std::uint32_t>(r));
  return key;
}

WindowEntry& WindowRegistry::add(MPI_Win win, const CommEntry& comm) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  WindowEntry& entry = r.entries.emplace_back();
  entry.ref = kMpiWindowFirstRef + static_cast<WindowRef>(r.entries.size() - 1);
  entry.comm = &comm;
  r.keys.push_back(window_key(comm.key, r.created_on[comm.ref]++));
  r.live[win] = &entry;
  return entry;
}

WindowEntry* WindowRegistry::find(MPI_Win win) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.live.find(win);
  return it == r.live.end() ? nullptr : it->second;
}

void WindowRegistry::forget(MPI_Win win) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.live.erase(win);
}

GroupRef WindowRegistry::sync_group(const std::vector<std::int32_t>& world_ranks) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto [it, added] = r.groups.try_emplace(
      world_ranks, kMpiSyncGroupFirstRef + static_cast<GroupRef>(r.groups.size()));
  return it->second;
}

AdapterDefinitions WindowRegistry::snapshot() const {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  AdapterDefinitions d;
  for (std::size_t i = 0; i < r.entries.size(); ++i)
    d.windows.push_back({r.entries[i].ref, r.keys[i], "MPI window", r.entries[i].comm->ref});
  for (const auto& [members, ref] : r.groups)
    d.groups.push_back(
        {ref, Paradigm::Mpi, sync_group_key(members), "MPI_Win_post/start group", members});
  return d;
}

WindowRegistry& windows() noexcept {
  static WindowRegistry instance;
  return instance;
}

}  // namespace collwrap::tracer
