// The communication matrix: per sender × receiver rank, how many point-to-point messages went
// and how long they took from the start of the send to the completion of the receive. One-sided
// transfers (OpenSHMEM, UPC) count too, in the direction the data moved: a put or an atomic's
// operand from the origin to the target, a get or an atomic's result from the target to the
// origin, each taking the duration of its call.
#pragma once

#include <vector>

#include "analysis_result.h"
#include "matching.h"
#include "trace_model.h"

namespace collwrap {

// One cell per (sender, receiver) pair that exchanged at least one matched message or one-sided
// transfer, ordered by sender then receiver.
std::vector<CommPair> communication_matrix(const Trace& trace, const Matching& matching);

}  // namespace collwrap
