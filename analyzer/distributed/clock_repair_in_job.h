// The clock repair of a divided trace over MPI (ClockRepairShares, clock_repair.h): each
// process repairs the locations it holds, and after every pass its ghosts take their holders'
// shifts. Each process first tells the holders which of their events it holds as ghosts (the
// ghosts' origin indexes), so that a holder then sends just those, in the ghosts' order.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "clock_repair.h"
#include "partial_trace.h"

namespace collwrap {

class ClockRepairInJob : public ClockRepairShares {
 public:
  // `shares`: every process's locations (split_locations). Called by every process together.
  ClockRepairInJob(const PartialTrace& part, const std::vector<LocationRange>& shares,
                   unsigned self);

  LocationRange held() const override { return part_.held; }
  void share(std::vector<std::vector<std::uint16_t>>& shifts) override { exchange(shifts); }
  void share(std::vector<std::vector<std::uint32_t>>& shifts) override { exchange(shifts); }
  void share(std::vector<std::vector<TimeNs>>& shifts) override { exchange(shifts); }
  std::uint64_t sum(std::uint64_t value) override;
  TimeNs max(TimeNs value) override;
  bool all(bool value) override;

 private:
  template <class Shift>
  void exchange(std::vector<std::vector<Shift>>& shifts);
  // The ghost locations this process holds of `holder`'s locations, ascending.
  std::vector<std::uint32_t> ghosts_from(unsigned holder) const;

  const PartialTrace& part_;
  const std::vector<LocationRange>& shares_;
  unsigned self_;
  // By process: (location, position in its sequence of events) of each held event it holds
  // as a ghost, in the order of its ghosts.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> wanted_;
};

}  // namespace collwrap
