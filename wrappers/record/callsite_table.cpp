#include "record/callsite_table.h"

namespace collwrap::tracer {

std::size_t CallSiteTable::ChainHash::operator()(
    std::span<const std::uintptr_t> frames) const noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uintptr_t f : frames) {
    h ^= f;
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return std::size_t(h);
}

CallSiteRef CallSiteTable::intern(std::span<const std::uintptr_t> frames) {
  std::size_t hash = ChainHash{}(frames);
  Shard& shard = shards_[(hash >> 7) % kShards];
  std::lock_guard shard_lock(shard.mutex);
  if (auto it = shard.ids.find(frames); it != shard.ids.end()) return it->second;
  FrameChain chain(frames.begin(), frames.end());
  CallSiteRef id;
  {
    std::lock_guard chains_lock(chains_mutex_);
    id = CallSiteRef(chains_.size());
    chains_.push_back(chain);
  }
  shard.ids.emplace(std::move(chain), id);
  return id;
}

std::vector<FrameChain> CallSiteTable::chains() const {
  std::lock_guard lock(chains_mutex_);
  return chains_;
}

}  // namespace collwrap::tracer
