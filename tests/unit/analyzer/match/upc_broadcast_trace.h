// A hand-built upc_all_broadcast for the matcher's and the clock repair's tests of the UPC sync
// modes.
#pragma once

#include "trace_builder.h"

namespace collwrap {

// upc_all_broadcast from thread 2 over 3 threads: thread 1 leaves (at 1500) before thread 2, the
// source, enters (at 3000). An MPI_Bcast like it would break the clock condition.
inline Trace upc_broadcast_leaving_early(UpcSync entry, UpcSync exit) {
  TraceBuilder b(3);
  const TimeNs enter[3] = {1000, 1100, 3000}, leave[3] = {3500, 1500, 3600};
  for (int r = 0; r < 3; ++r) {
    const CallRef c = b.call(r, "upc_all_broadcast", enter[r], leave[r]);
    b.upc_sync(c, b.collective(c, CollOp::Bcast, 0, /*root*/ 2, 64, 64), entry, exit);
  }
  return b.finish();
}

}  // namespace collwrap
