// Time per MPI function and message size: which operations the MPI time goes to.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "analysis_result.h"
#include "trace_model.h"

namespace collwrap {

// Size bucket of a call moving `bytes` (sent plus received over its records): 0 for none,
// else [4^k, 4^(k+1) − 1] with 4^k ≤ bytes. Returns {bytes_min, bytes_max}.
std::pair<std::uint64_t, std::uint64_t> size_bucket(std::uint64_t bytes);

// One entry per (MPI function, size bucket) that occurs, largest total time first.
std::vector<OperationStats> operation_stats(const Trace& trace);

// The same in steps, for processes that divide a trace (distributed/): each tallies the calls
// of its locations, process 0 adds the tallies up (in integer nanoseconds, so exactly) and
// makes the entries.
struct OperationTally {
  std::uint64_t count = 0;
  TimeNs total = 0;
  TimeNs min = std::numeric_limits<TimeNs>::max();
  TimeNs max = 0;
};
struct OperationTallies {
  std::map<std::pair<std::uint32_t, std::uint64_t>, OperationTally> groups;  // region, bucket low
  TimeNs all_mpi = 0;
};
OperationTallies tally_operations(const Trace& trace, const LocationRange& at = {});
void merge_tallies(OperationTallies& into, const OperationTallies& from);
std::vector<OperationStats> operation_stats(const Trace& trace, const OperationTallies& tallies);

}  // namespace collwrap
