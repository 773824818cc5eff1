// The communication matrix: per sender × receiver rank, how many point-to-point messages went
// and how long they took from the start of the send to the completion of the receive.
#pragma once

#include <vector>

#include "analysis_result.h"
#include "matching.h"
#include "trace_model.h"

namespace collwrap {

// One cell per (sender, receiver) pair that exchanged at least one matched message, ordered by
// sender then receiver.
std::vector<CommPair> communication_matrix(const Trace& trace, const Matching& matching);

}  // namespace collwrap
