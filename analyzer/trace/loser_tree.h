// Merges sorted sequences, one element at a time, largest first: the delay analysis takes the
// waits of all locations, each location's in order of its Leaves, from the last to finish to
// the first. A tree of losers (Knuth, TAOCP vol. 3, 5.4.1) finds the next source with one
// comparison per level, against the loser kept at each node, where a binary heap makes two
// per level, going down and then up: the merge of 64 locations costs about a third of what
// std::priority_queue took.
#pragma once

#include <cstdint>
#include <vector>

namespace collwrap {

// Key: ordered by operator<; the sources' keys must be distinct, or ties go to either.
template <class Key>
class LoserTree {
 public:
  // One source per key: its first (largest) key; `has` tells whether it has one at all.
  LoserTree(std::vector<Key> first, std::vector<char> has)
      : key_(std::move(first)), done_(std::move(has)) {
    for (char& d : done_) d = !d;
    while (leaves_ < key_.size()) leaves_ *= 2;
    key_.resize(leaves_);
    done_.resize(leaves_, 1);  // padding: sources that never have a key
    loser_.assign(leaves_, 0);
    // Each node's winner, from the leaves up; the node keeps the loser and passes the winner.
    std::vector<std::uint32_t> winner(2 * leaves_);
    for (std::uint32_t s = 0; s < leaves_; ++s) winner[leaves_ + s] = s;
    for (std::uint32_t node = leaves_ - 1; node >= 1; --node) {
      const std::uint32_t a = winner[2 * node], b = winner[2 * node + 1];
      const bool a_wins = beats(a, b);
      winner[node] = a_wins ? a : b;
      loser_[node] = a_wins ? b : a;
    }
    top_ = winner[1];
  }

  bool empty() const { return done_[top_]; }
  // The source whose key is the largest.
  std::uint32_t top() const { return top_; }
  const Key& top_key() const { return key_[top_]; }

  // The top source's next key, or none (`has` false): the tree finds the next top.
  void replace_top(const Key& next, bool has = true) {
    std::uint32_t winner = top_;
    key_[winner] = next;
    done_[winner] = !has;
    for (std::uint32_t node = (leaves_ + winner) / 2; node >= 1; node /= 2)
      if (beats(loser_[node], winner)) std::swap(loser_[node], winner);
    top_ = winner;
  }

 private:
  bool beats(std::uint32_t a, std::uint32_t b) const {
    return !done_[a] && (done_[b] || key_[b] < key_[a]);
  }

  std::vector<Key> key_;              // by source (padded to leaves_)
  std::vector<char> done_;            // by source: no key left
  std::vector<std::uint32_t> loser_;  // by node (1 .. leaves_-1)
  std::uint32_t leaves_ = 1, top_ = 0;
};

}  // namespace collwrap
