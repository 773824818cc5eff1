// The data a trace moved between processes, one transfer at a time: matched point-to-point
// messages and one-sided puts, gets and atomics (OpenSHMEM, UPC, MPI windows). Shared by the
// communication matrix and the rules that weigh traffic per process pair.
#pragma once

#include <cstdint>
#include <functional>

#include "matching.h"
#include "trace_model.h"

namespace collwrap {

struct Transfer {
  std::int32_t from = kNoWorldRank;  // world rank the data left
  std::int32_t to = kNoWorldRank;    // world rank the data reached
  std::uint64_t bytes = 0;
  bool one_sided = false;
  // The op that issued it (the send, or the put/get/atomic on its origin) and its call.
  OpRef issued;
  std::uint32_t call = kNone;
  // Message: Enter of the send's call to Leave of the call that completed the receive.
  // One-sided: its call. Residual clock error can invert them; users clamp.
  TimeNs start = 0;
  TimeNs done = 0;
};

// Calls `visit` for every matched message (sender → receiver) and every one-sided transfer in
// the direction its data moved: a put or an atomic's operand origin → target, a get or an
// atomic's result target → origin (an atomic is two transfers). Ops outside any call and
// one-sided ops without a target rank are skipped. Only transfers issued at the locations `at`
// are visited (a message at its send, a one-sided transfer at its origin), where the call that
// issued it is numbered as in the whole trace.
void for_each_transfer(const Trace& trace, const Matching& matching,
                       const std::function<void(const Transfer&)>& visit,
                       const LocationRange& at = {});

}  // namespace collwrap
