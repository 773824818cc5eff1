#include "mpi/request_table.h"

namespace collwrap::tracer {

RequestTable::Shard& RequestTable::shard_of(MPI_Request handle) const noexcept {
  // Handles are often aligned pointers: mix the bits before taking the top ones.
  const std::uint64_t hash = std::hash<MPI_Request>{}(handle)*0x9E3779B97F4A7C15ull;
  return shards_[hash >> 58];
}

RequestId RequestTable::next_id() noexcept {
  return next_id_.fetch_add(1, std::memory_order_relaxed);
}

RequestId RequestTable::post(MPI_Request handle, const TrackedRequest& request) {
  Shard& shard = shard_of(handle);
  const ShardLock lock(shard, concurrent());
  // Taken under the lock, so a shared handle's requests are ordered as they were posted.
  const RequestId id = next_id();
  const Key key{handle, id};
  // Most shards hold no other request: then, and whenever the new key sorts last, no search.
  const bool last = shard.requests.empty() || key_less(shard.requests.back().key, key);
  Entry& entry = last ? shard.requests.emplace_back(Entry{key, request})
                      : *shard.requests.insert(shard.lower_bound(key), Entry{key, request});
  entry.request.active = true;
  entry.request.persistent = false;
  entry.request.id = id;
  return id;
}

void RequestTable::add_persistent(MPI_Request handle, TrackedRequest request) {
  request.persistent = true;
  request.active = false;
  request.id = 0;
  Shard& shard = shard_of(handle);
  const ShardLock lock(shard, concurrent());
  const auto first = shard.lower_bound({handle, 0});
  auto last = first;
  while (last != shard.requests.end() && last->key.first == handle) ++last;
  const auto at = shard.requests.erase(first, last);
  shard.requests.insert(at, Entry{{handle, RequestId{0}}, request});
}

std::optional<TrackedRequest> RequestTable::start(MPI_Request handle) {
  Shard& shard = shard_of(handle);
  const ShardLock lock(shard, concurrent());
  const auto it = shard.find({handle, 0});
  if (it == shard.requests.end()) return std::nullopt;
  it->request.active = true;
  it->request.id = next_id();
  return it->request;
}

std::optional<TrackedRequest> RequestTable::find(MPI_Request handle) const {
  const Shard& shard = shard_of(handle);
  const ShardLock lock(shard, concurrent());
  const auto it = shard.first_of(handle);
  if (it == shard.requests.end() || it->key.first != handle) return std::nullopt;
  return it->request;
}

void RequestTable::finish(MPI_Request handle, RequestId id) {
  Shard& shard = shard_of(handle);
  const ShardLock lock(shard, concurrent());
  if (const auto it = shard.find({handle, id}); it != shard.requests.end()) {
    shard.requests.erase(it);
    return;
  }
  const auto persistent = shard.find({handle, 0});
  if (persistent != shard.requests.end() && persistent->request.id == id) {
    persistent->request.active = false;
  }
}

void RequestTable::finish_at(Shard& shard, std::vector<Entry>::iterator it) {
  if (it->request.persistent) {
    it->request.active = false;
  } else {
    shard.requests.erase(it);
  }
}

void RequestTable::forget(MPI_Request handle) {
  Shard& shard = shard_of(handle);
  const ShardLock lock(shard, concurrent());
  const auto it = shard.lower_bound({handle, 0});
  if (it != shard.requests.end() && it->key.first == handle) shard.requests.erase(it);
}

std::size_t RequestTable::size() const {
  std::size_t total = 0;
  for (const Shard& shard : shards_) {
    const ShardLock lock(shard, concurrent());
    total += shard.requests.size();
  }
  return total;
}

}  // namespace collwrap::tracer
