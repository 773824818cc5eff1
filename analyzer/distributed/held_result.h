// What each analyzer process of a job makes of its share of a divided archive, and the bytes it
// goes to process 0 as: the findings and the report's parts taken at its own locations, which
// process 0 merges into the result the analyzer alone would give (assemble_result).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyze.h"
#include "comm_matrix.h"
#include "location_report.h"
#include "operation_stats.h"

namespace collwrap {

struct HeldResult {
  Findings findings;
  MatchCounts counts;
  std::uint64_t collectives = 0;     // instances whose first member it holds
  std::vector<LocationTimes> times;  // of its locations, in order
  OperationTallies operations;
  std::vector<GrainDistribution> grains;  // of its locations, in order
  // The communication matrix: the cells of the pairs whose transfers only this process
  // counted, and the times of the others' transfers (summarize_unshared_pairs).
  std::vector<CommPair> cells;
  PairTransfers transfers;
  std::vector<GrainNoise> noise;              // of its locations, in order, with --noise
  std::vector<LocationReport> reports;        // of its locations, in order
  std::vector<std::string> archive_messages;  // what reading the archive said, beside them
};

std::vector<char> held_result_bytes(const HeldResult& held);

// Throws std::runtime_error when the bytes end early.
HeldResult read_held_result(std::span<const char> bytes);

// One location's read report alone, as the gathered analysis sends it with its location
// (share_transfer.h). Throws std::runtime_error when the bytes end early.
std::vector<char> location_report_bytes(const LocationReport& report);
LocationReport read_location_report(std::span<const char> bytes);

}  // namespace collwrap
