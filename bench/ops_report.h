// What `collwrap-bench ops` prints: MPITEST's table, one row per operation and size (a size
// only for operations that move data), with the mean over the repeats and their spread; the
// same rows as CSV and JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ops_correction.h"

namespace collwrap::bench {

struct OpsRunInfo {
  int ranks = 0;
  std::string timer;
  int repeats = 0, iterations = 0, short_iterations = 0;
  OpsFigure clock_read;  // DT
  OpsFigure barrier;     // DB
};

struct OpsRow {
  std::string operation;
  bool sized = false;
  std::size_t size = 0;  // integers
  OpsFigure figure;
};

std::string ops_table(const OpsRunInfo& info, const std::vector<OpsRow>& rows);
std::string ops_csv(const std::vector<OpsRow>& rows);
nlohmann::ordered_json ops_json(const OpsRunInfo& info, const std::vector<OpsRow>& rows);

}  // namespace collwrap::bench
