// Reduces the per-request waits of one call to one instance.
//
// A call that waits for several requests at once (MPI_Waitall over three receives) idles once,
// as long as its longest wait, so it reports the worst request's idle time and detail, and
// names every peer that made it wait.
#pragma once

#include <algorithm>
#include <vector>

#include "pattern.h"

namespace collwrap {

class WorstWait {
 public:
  void add(TimeNs idle, Peer peer, const InstanceDetail& detail = {}) {
    if (idle <= 0) return;
    if (std::find(peers_.begin(), peers_.end(), peer) == peers_.end()) peers_.push_back(peer);
    if (idle > worst_) {
      worst_ = idle;
      detail_ = detail;
    }
  }

  // Reports the call if any request made it wait, then starts over for the next call.
  void flush(const Pattern& pattern, std::uint32_t loc, std::uint32_t call, InstanceSink& sink) {
    if (worst_ > 0) sink.add({&pattern, loc, call, worst_, peers_, detail_});
    worst_ = 0;
    detail_ = {};
    peers_.clear();
  }

 private:
  TimeNs worst_ = 0;
  InstanceDetail detail_;
  std::vector<Peer> peers_;
};

}  // namespace collwrap
