// A location's events as one sequence: per call its Enter, its ops, its Leave, calls in order.
// Positions follow from call_first_op, so no table is needed to find an op's or a call's place
// (the clock repair's shifts, and the ghosts' share of them in a job, are kept so).
#pragma once

#include <cstdint>

#include "trace_model.h"

namespace collwrap {

inline std::uint32_t enter_position(const Location& l, std::uint32_t call) {
  return 2 * call + l.call_first_op[call];
}
// Every op belongs to a call: the reader drops MPI records outside any call.
inline std::uint32_t op_position(const Location& l, std::uint32_t op) {
  return 2 * l.op_call[op] + 1 + op;
}
inline std::uint32_t leave_position(const Location& l, std::uint32_t call) {
  return 2 * call + 1 + l.call_first_op[call + 1];
}

}  // namespace collwrap
