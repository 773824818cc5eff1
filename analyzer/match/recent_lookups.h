// The last two keys looked up in a map and what was found for them, kept at hand.
//
// The analyzer looks up a key per record in places (the message keys while matching, a
// receiver's sources in wrong_order). A location takes turns among a few partners
// (a ring's or a halo's two neighbours), so most look-ups ask for one of the last two keys
// again: answered here, they skip hashing the key or walking a tree. What is kept must stay
// valid while the map grows: an index, or a pointer into a node-based map (std::map,
// std::unordered_map), never into a flat one.
#pragma once

#include <utility>

namespace collwrap {

template <class Key, class Value>
class RecentLookups {
 public:
  // What lookup(key) gave, found again if the key is one of the last two asked for.
  template <class Lookup>
  Value get(const Key& key, Lookup&& lookup) {
    if (const Value* v = at_hand(key)) return *v;
    key_[1] = std::move(key_[0]);
    value_[1] = std::move(value_[0]);
    key_[0] = key;
    value_[0] = lookup(key);
    filled_ = filled_ < 2 ? filled_ + 1 : 2;
    return value_[0];
  }

  // What was found for `key` if it is one of the last two asked for, else nullptr.
  const Value* peek(const Key& key) const {
    for (int i = 0; i < filled_; ++i)
      if (key_[i] == key) return &value_[i];
    return nullptr;
  }

 private:
  // The entry of `key`, moved to the front, or nullptr.
  const Value* at_hand(const Key& key) {
    if (filled_ > 0 && key_[0] == key) return &value_[0];
    if (filled_ > 1 && key_[1] == key) {
      std::swap(key_[0], key_[1]);
      std::swap(value_[0], value_[1]);
      return &value_[0];
    }
    return nullptr;
  }

  Key key_[2]{};
  Value value_[2]{};
  int filled_ = 0;
};

}  // namespace collwrap
