// Time per MPI function and message size: which operations the MPI time goes to.
#pragma once

#include <cstdint>
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

}  // namespace collwrap
