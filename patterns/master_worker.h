// The master-worker structure of Akopyan and Andreev (ISP RAS, master-worker patterns of UPC
// programs): one process hands out work and collects results, the others compute. Found from
// the traffic, for MPI messages and one-sided transfers alike (master_of and MasterTraffic in
// traffic_totals.h); shared by slow_workers.cpp, overloaded_master.cpp and traffic_totals.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "pattern.h"

namespace collwrap {

// A process that idled waiting for data from one other process: a late_sender instance (a
// receive waited for its send) or a late_wait_until one (a wait for local memory waited for a
// put or atomic).
struct DataWait {
  std::uint32_t loc = kNone;
  std::uint32_t call = kNone;
  std::int32_t rank = kNoWorldRank;
  Peer peer;            // the process (and thread) whose data ended the wait
  TimeNs enter = 0;     // Enter of the waiting call
  TimeNs released = 0;  // when the awaited data started to come: enter + idle
};

std::vector<DataWait> data_waits(const RuleContext& context);

}  // namespace collwrap
