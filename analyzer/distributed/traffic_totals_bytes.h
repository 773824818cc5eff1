// The traffic totals (traffic_totals.h) as the bytes they travel in between the processes of
// a job: each process's part goes to process 0, and the merged totals come back to all.
#pragma once

#include <span>
#include <vector>

#include "traffic_totals.h"

namespace collwrap {

std::vector<char> pair_traffic_bytes(const PairTraffics& pairs);
std::vector<char> master_traffic_bytes(const MasterTraffic& traffic);

// Throw std::runtime_error when the bytes end early.
PairTraffics read_pair_traffic(std::span<const char> bytes);
MasterTraffic read_master_traffic(std::span<const char> bytes);

}  // namespace collwrap
