// The noise file: one collection of `collwrap-bench noise`, saved with --save and analyzed
// again with --load or by `analyzer --noise`. JSON, versioned:
//   {"format": "collwrap-noise", "version": 1,
//    "hosts": ["node1", …],                 one per rank
//    "timer": "tsc", "clock_sync": "linear",
//    "quantum_s": 5.1e-06,                  the fastest quantum over the ranks
//    "quantum_iterations": 4000,            the work of one quantum
//    "duration_s": 60.0,                    T: every rank collected from 0 to T
//    "threshold_s": 1e-06,                  a slower quantum by more than this is a burst
//    "ranks": [{"rank": 0, "host": "node1", "quanta": 11000000, "min_quantum_s": 5.1e-06,
//               "bursts": [[start_s, duration_s], …]}, …],     by start, times from 0
//    "bands": [{"low_s", "high_s" (null: no bound), "bursts", "d_s", "g_s", "C", "S"}, …]}
// "bands" are the metrics the collector computed (for readers of the file); whoever loads it
// computes them again from the bursts.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "noise_bands.h"
#include "noise_bursts.h"

namespace collwrap::noise {

inline constexpr const char* kNoiseFileFormat = "collwrap-noise";
inline constexpr int kNoiseFileVersion = 1;

struct RankRecord {
  std::string host;
  std::uint64_t quanta = 0;
  double min_quantum_s = 0;
  RankBursts bursts;
};

struct NoiseRecord {
  std::string timer;
  std::string clock_sync;
  double quantum_s = 0;
  std::uint64_t quantum_iterations = 0;
  double duration_s = 0;
  double threshold_s = 0;
  std::vector<RankRecord> ranks;  // index = rank

  // The bursts of ranks[0..p) (all when p is larger), as the band metrics and the
  // predictions take them.
  std::vector<RankBursts> bursts(std::size_t p) const;
};

// What is wrong with a noise file; what() names the problem (not the file).
struct NoiseFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes the record and its bands over all ranks (edges as band_edges() takes them). Throws
// NoiseFileError when the file cannot be written.
void write_noise_file(const std::string& path, const NoiseRecord& record,
                      std::span<const double> upper_edges_s);

// Throws NoiseFileError when the file cannot be read or is not a noise file of this version.
NoiseRecord read_noise_file(const std::string& path);

}  // namespace collwrap::noise
