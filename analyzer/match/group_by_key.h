// Groups matcher entries (sends, receives, collective participations) by a dense key number.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "trace_model.h"

namespace collwrap {

// Entries of key k are entries[index[start[k]]], …, entries[index[start[k + 1] - 1]].
struct KeyGroups {
  std::vector<std::uint32_t> start;  // keys + 1 offsets into index
  std::vector<std::uint32_t> index;  // into the grouped entries

  std::uint32_t size(std::size_t key) const { return start[key + 1] - start[key]; }
  // The i-th entry of key k, as an index into the entries.
  std::uint32_t at(std::size_t key, std::uint32_t i) const { return index[start[key] + i]; }
};

// A stable counting sort of `entries` by key_of(e) in [0, keys): linear time, and each group
// keeps the order in which its location recorded the entries. It sorts indexes, not the
// entries, which would need a second copy of them. A group fed by several locations (threads
// of one rank) is put in time_of order instead, the best guess at the order in which MPI saw
// them.
template <class Entry, class KeyOf, class LocOf, class TimeOf>
KeyGroups group_by_key(const std::vector<Entry>& entries, std::size_t keys, KeyOf key_of,
                       LocOf loc_of, TimeOf time_of) {
  KeyGroups g;
  g.start.assign(keys + 1, 0);
  std::vector<std::uint32_t> first_loc(keys, kNone);
  std::vector<std::uint8_t> mixed(keys, 0);
  for (const Entry& e : entries) {
    const std::uint32_t k = key_of(e);
    ++g.start[k + 1];
    if (first_loc[k] == kNone) first_loc[k] = loc_of(e);
    mixed[k] |= first_loc[k] != loc_of(e);
  }
  for (std::size_t k = 0; k < keys; ++k) g.start[k + 1] += g.start[k];
  g.index.resize(entries.size());
  std::vector<std::uint32_t> fill(g.start.begin(), g.start.end() - 1);
  for (std::uint32_t i = 0; i < entries.size(); ++i) g.index[fill[key_of(entries[i])]++] = i;
  for (std::size_t k = 0; k < keys; ++k) {
    if (!mixed[k]) continue;
    std::stable_sort(g.index.begin() + g.start[k], g.index.begin() + g.start[k + 1],
                     [&](std::uint32_t a, std::uint32_t b) {
                       return time_of(entries[a]) < time_of(entries[b]);
                     });
  }
  return g;
}

}  // namespace collwrap
