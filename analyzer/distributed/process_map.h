// Which analyzer process holds each location, and so which processes hold locations of each
// world rank and members of each communicator: what a process needs from the others follows
// from these (ghost_selection.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "location_shares.h"
#include "trace_model.h"

namespace collwrap {

class ProcessMap {
 public:
  // `shares`: one contiguous range of trace.locations per process (split_locations), covering
  // them in order. Only the definitions of `trace` are read (ranks and communicators).
  ProcessMap(const Trace& trace, const std::vector<LocationRange>& shares);

  unsigned processes() const { return processes_; }
  unsigned holder(std::uint32_t location) const { return location_holder_[location]; }
  // Ascending and without repeats; empty for a rank no location has (kNoWorldRank included).
  std::span<const unsigned> holders_of_rank(std::int32_t rank) const;
  // The holders of its member ranks; empty for a communicator without a member list.
  std::span<const unsigned> holders_of_comm(std::uint32_t comm) const;

 private:
  unsigned processes_ = 0;
  std::vector<unsigned> location_holder_;
  std::vector<std::vector<unsigned>> rank_holders_;  // by world rank
  std::vector<std::vector<unsigned>> comm_holders_;  // by communicator
};

}  // namespace collwrap
