// A small open-addressing hash map from a trivially copyable key to a uint32 index.
//
// The matcher does one lookup per MPI record (message keys, outstanding requests), so the map
// keeps keys and values in one flat array (one cache line per probe) instead of allocating a
// node per entry the way std::unordered_map does. Linear probing with backward-shift
// deletion: erasing needs no tombstones, so a map that sees millions of insert/erase pairs
// (requests posted and completed) stays as small as its live contents.
#pragma once

#include <cstdint>
#include <vector>

#include "trace_model.h"

namespace collwrap {

inline std::uint64_t mix_bits(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct U64Hash {
  std::uint64_t operator()(std::uint64_t key) const { return mix_bits(key); }
};

// Values are indexes; kNone is reserved to mark empty slots and cannot be stored.
template <class Key, class Hash>
class FlatMap {
 public:
  explicit FlatMap(std::size_t expected = 16) { rehash(capacity_for(expected)); }

  const std::uint32_t* find(const Key& key) const {
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == kNone) return nullptr;
      if (s.key == key) return &s.value;
    }
  }

  // Inserts key → value unless the key is present; returns the stored value either way.
  std::uint32_t insert(const Key& key, std::uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) rehash(2 * slots_.size());
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.value == kNone) {
        s = {key, value};
        ++size_;
        return value;
      }
      if (s.key == key) return s.value;
    }
  }

  // Sets key → value, replacing a present value; returns the replaced value or kNone.
  std::uint32_t assign(const Key& key, std::uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) rehash(2 * slots_.size());
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.value == kNone) {
        s = {key, value};
        ++size_;
        return kNone;
      }
      if (s.key == key) {
        const std::uint32_t old = s.value;
        s.value = value;
        return old;
      }
    }
  }

  // Removes the key; returns its value, or kNone when it was absent.
  std::uint32_t erase(const Key& key) {
    std::size_t hole = home(key);
    for (;; hole = (hole + 1) & mask_) {
      if (slots_[hole].value == kNone) return kNone;
      if (slots_[hole].key == key) break;
    }
    const std::uint32_t value = slots_[hole].value;
    // Backward shift: move later entries of the probe run into the hole when their home
    // position does not lie cyclically between the hole and themselves.
    for (std::size_t j = (hole + 1) & mask_; slots_[j].value != kNone; j = (j + 1) & mask_) {
      const std::size_t h = home(slots_[j].key);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole].value = kNone;
    --size_;
    return value;
  }

  std::size_t size() const { return size_; }

  // Visits every entry as f(key, value), in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.value != kNone) f(s.key, s.value);
  }

 private:
  struct Slot {
    Key key{};
    std::uint32_t value = kNone;
  };

  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c < 2 * n) c *= 2;
    return c;
  }
  std::size_t home(const Key& key) const { return Hash{}(key)&mask_; }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    mask_ = capacity - 1;
    size_ = 0;
    for (const Slot& s : old)
      if (s.value != kNone) insert(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace collwrap
