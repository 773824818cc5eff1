// Runs of consecutive calls (global ids), one per location in location order, numbered one
// after another: the calls a slice of time of a divided analysis holds (a slice graph's, a
// delay window's). A global id's local number is found by its run, so that no table per
// call is needed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "trace_model.h"

namespace collwrap {

class CallRuns {
 public:
  // The next location's run: the calls [first, end).
  void add(std::uint32_t first, std::uint32_t end) {
    // The blocks up to the one of `first` that are new begin after every earlier run's first.
    const std::size_t block = first >> kBlockBits;
    if (runs_before_block_.size() <= block)
      runs_before_block_.resize(block + 1, static_cast<std::uint32_t>(first_.size()));
    local_first_.push_back(size());
    first_.push_back(first);
    end_.push_back(end);
  }
  std::uint32_t size() const {
    return end_.empty() ? 0 : local_first_.back() + (end_.back() - first_.back());
  }
  // The local number of global call g, or kNone when no run holds it.
  std::uint32_t local(std::uint32_t g) const {
    // The runs whose first call is at or before g: those before g's block, then the few that
    // start within the block at or before g. A slice's analysis asks this at every gate
    // and wait, where a binary search over every location took several mispredicted steps.
    const std::size_t block = g >> kBlockBits;
    std::size_t runs =
        block < runs_before_block_.size() ? runs_before_block_[block] : first_.size();
    while (runs < first_.size() && first_[runs] <= g) ++runs;
    // The runs' first calls never decrease; empty runs may share one with the next.
    while (runs > 0) {
      const std::size_t loc = --runs;
      if (g < end_[loc]) return local_first_[loc] + (g - first_[loc]);
      if (first_[loc] < end_[loc]) break;
    }
    return kNone;
  }

 private:
  static constexpr unsigned kBlockBits = 12;
  std::vector<std::uint32_t> first_, end_, local_first_;  // by location
  // By block of 2^kBlockBits global ids, how many runs start before the block's first id.
  std::vector<std::uint32_t> runs_before_block_;
};

}  // namespace collwrap
