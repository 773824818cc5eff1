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
    local_first_.push_back(size());
    first_.push_back(first);
    end_.push_back(end);
  }
  std::uint32_t size() const {
    return end_.empty() ? 0 : local_first_.back() + (end_.back() - first_.back());
  }
  // The local number of global call g, or kNone when no run holds it.
  std::uint32_t local(std::uint32_t g) const {
    // The runs' first calls never decrease; empty runs may share one with the next.
    for (auto it = std::upper_bound(first_.begin(), first_.end(), g); it != first_.begin();) {
      const auto loc = static_cast<std::size_t>(--it - first_.begin());
      if (g < end_[loc]) return local_first_[loc] + (g - first_[loc]);
      if (first_[loc] < end_[loc]) break;
    }
    return kNone;
  }

 private:
  std::vector<std::uint32_t> first_, end_, local_first_;  // by location
};

}  // namespace collwrap
