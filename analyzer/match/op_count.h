// How many ops of some kinds a trace holds, so that the matcher can size its tables once
// instead of growing them (each growth copies the table and touches fresh memory).
#pragma once

#include <algorithm>
#include <initializer_list>

#include "trace_model.h"

namespace collwrap {

inline std::size_t count_ops(const Trace& trace, std::initializer_list<OpKind> kinds) {
  std::size_t n = 0;
  for (const Location& l : trace.locations)
    for (OpKind k : l.op_kind) n += std::find(kinds.begin(), kinds.end(), k) != kinds.end();
  return n;
}

}  // namespace collwrap
