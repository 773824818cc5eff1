// Deduplication of call sites: a call site is the chain of return addresses of an MPI call
// (the wrapper's return address first, deeper frames after it when COLLWRAP_CALLSITE_DEPTH > 1).
// Each distinct chain gets a dense process-local id; resolution to file/line/function happens
// once per id at finalize, never on the hot path.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "record/recorder.h"

namespace collwrap::tracer {

// Recorded when call sites are off (COLLWRAP_CALLSITE_DEPTH=0) or could not be interned:
// the Enter record then carries no CallSite attribute.
inline constexpr CallSiteRef kNoCallSite = 0xFFFFFFFFu;

using FrameChain = std::vector<std::uintptr_t>;

// Thread-safe map from chain to id. Sharded by hash so that threads interning different call
// sites rarely contend; a per-thread AddressCache in front keeps the common case lock-free.
class CallSiteTable {
 public:
  CallSiteRef intern(std::span<const std::uintptr_t> frames);

  // All chains, index = id.
  std::vector<FrameChain> chains() const;

 private:
  struct ChainHash {
    using is_transparent = void;
    std::size_t operator()(std::span<const std::uintptr_t> frames) const noexcept;
    std::size_t operator()(const FrameChain& frames) const noexcept {
      return (*this)(std::span<const std::uintptr_t>(frames));
    }
  };
  struct ChainEqual {
    using is_transparent = void;
    bool operator()(std::span<const std::uintptr_t> a, std::span<const std::uintptr_t> b) const {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<FrameChain, CallSiteRef, ChainHash, ChainEqual> ids;
  };
  static constexpr std::size_t kShards = 16;
  std::array<Shard, kShards> shards_;
  mutable std::mutex chains_mutex_;  // guards chains_; taken after a shard's mutex
  std::vector<FrameChain> chains_;
};

// A small direct-mapped cache from a single return address to its id, owned by one thread.
// Ids never change, so entries never need invalidation.
class AddressCache {
 public:
  static constexpr std::size_t kSlots = 256;
  CallSiteRef find(std::uintptr_t address) const noexcept {
    std::size_t slot = index(address);
    return keys_[slot] == address ? ids_[slot] : kNoCallSite;
  }
  void put(std::uintptr_t address, CallSiteRef id) noexcept {
    std::size_t slot = index(address);
    keys_[slot] = address;
    ids_[slot] = id;
  }

 private:
  // Fibonacci hashing: the call sites of one loop are return addresses a few bytes apart (two
  // calls in a row can be 5 bytes apart), so every bit must reach the slot index; the top 8 bits
  // of the product depend on all of them.
  static std::size_t index(std::uintptr_t a) noexcept {
    static_assert(kSlots == 256);
    return static_cast<std::size_t>((std::uint64_t{a} * 0x9E3779B97F4A7C15u) >> 56);
  }
  std::array<std::uintptr_t, kSlots> keys_{};  // 0 = empty: no return address is 0
  std::array<CallSiteRef, kSlots> ids_{};
};

}  // namespace collwrap::tracer
