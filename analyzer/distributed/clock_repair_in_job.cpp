#include "clock_repair_in_job.h"

#include <mpi.h>

#include <stdexcept>

#include "byte_exchange.h"
#include "byte_stream.h"

namespace collwrap {
namespace {

// The process of round `round` that this one sends to, and the one it receives from.
unsigned partner_to(unsigned self, unsigned round, unsigned processes) {
  return (self + round) % processes;
}
unsigned partner_from(unsigned self, unsigned round, unsigned processes) {
  return (self + processes - round) % processes;
}

}  // namespace

ClockRepairInJob::ClockRepairInJob(const PartialTrace& part,
                                   const std::vector<LocationRange>& shares, unsigned self)
    : part_(part), shares_(shares), self_(self), wanted_(shares.size()) {
  const auto processes = static_cast<unsigned>(shares.size());
  for (unsigned round = 1; round < processes; ++round) {
    const unsigned to = partner_to(self, round, processes);
    const unsigned from = partner_from(self, round, processes);
    // To `to`: which of its events this process holds as ghosts.
    std::vector<char> mine;
    ByteWriter w(mine);
    for (const std::uint32_t loc : ghosts_from(to)) {
      w.put(loc);
      w.put_vector(part.origin_call[loc]);
      w.put_vector(part.origin_op[loc]);
    }
    const std::vector<char> theirs = swap_bytes(mine, static_cast<int>(to), static_cast<int>(from));
    ByteReader r(theirs, "the ghosts' origin indexes");
    while (!r.done()) {
      std::uint32_t loc = 0;
      std::vector<std::uint32_t> calls, ops;
      r.get(loc);
      r.get_vector(calls);
      r.get_vector(ops);
      if (!part.holds(loc) || loc >= part.trace.locations.size())
        throw std::runtime_error("another process holds a ghost of a location this one lacks");
      for (const std::uint32_t position :
           ghost_event_positions(part.trace.locations[loc], calls, ops))
        wanted_[from].push_back({loc, position});
    }
  }
}

std::vector<std::uint32_t> ClockRepairInJob::ghosts_from(unsigned holder) const {
  std::vector<std::uint32_t> ghosts;
  const LocationRange& theirs = shares_[holder];
  for (std::size_t loc = theirs.first; loc < std::min(theirs.end, part_.origin_call.size()); ++loc)
    if (!part_.origin_call[loc].empty()) ghosts.push_back(static_cast<std::uint32_t>(loc));
  return ghosts;
}

template <class Shift>
void ClockRepairInJob::exchange(std::vector<std::vector<Shift>>& shifts) {
  const auto processes = static_cast<unsigned>(shares_.size());
  for (unsigned round = 1; round < processes; ++round) {
    const unsigned to = partner_to(self_, round, processes);
    const unsigned from = partner_from(self_, round, processes);
    std::vector<Shift> values;
    values.reserve(wanted_[to].size());
    for (const auto& [loc, position] : wanted_[to]) values.push_back(shifts[loc][position]);
    std::vector<char> mine;
    ByteWriter(mine).put_vector(values);
    const std::vector<char> theirs = swap_bytes(mine, static_cast<int>(to), static_cast<int>(from));
    ByteReader r(theirs, "the ghosts' clock shifts");
    r.get_vector(values);
    std::size_t at = 0;
    for (const std::uint32_t loc : ghosts_from(from)) {
      std::vector<Shift>& ghost = shifts[loc];
      if (values.size() - at < ghost.size())
        throw std::runtime_error("another process sent too few clock shifts for its ghosts");
      std::copy(values.begin() + static_cast<std::ptrdiff_t>(at),
                values.begin() + static_cast<std::ptrdiff_t>(at + ghost.size()), ghost.begin());
      at += ghost.size();
    }
  }
}

std::uint64_t ClockRepairInJob::sum(std::uint64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return value;
}

TimeNs ClockRepairInJob::max(TimeNs value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

bool ClockRepairInJob::all(bool value) {
  int all = value;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

}  // namespace collwrap
