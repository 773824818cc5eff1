// What `collwrap-bench coll` prints and writes: per collective, a table whose first columns are
// OSU's (`# Size  Avg Latency(us)`, so OSU parsers read it) followed by MPIPerf's (runs total /
// correct / failed, runs used after trimming, mean, RSE, SE, min, max, confidence interval),
// optionally each rank's mean time; the same rows as CSV and JSON.
#pragma once

#include <cstddef>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "coll_collectives.h"
#include "coll_methods.h"

namespace collwrap::bench {

struct CollRunInfo {
  std::string method;  // window | barrier | naive
  int ranks = 0;
  int root = 0;
  std::string timer, sync;
  double confidence = 0.95;
  bool per_rank = false;
};

struct CollRow {
  const Collective* collective = nullptr;
  std::size_t size = 0;
  CollMeasurement measurement;
};

void print_coll_header(FILE* out, const CollRunInfo& info, const Collective& collective);
void print_coll_row(FILE* out, const CollRunInfo& info, const CollRow& row);
std::string coll_csv(const CollRunInfo& info, const std::vector<CollRow>& rows);
nlohmann::ordered_json coll_json(const CollRunInfo& info, const std::vector<CollRow>& rows);

}  // namespace collwrap::bench
