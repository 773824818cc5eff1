// A divided analysis's sliced replay (sliced_replay.h) played out in one process, for the tests
// of the steps that run in slices: every process makes its rows, the cuts, the rows each
// slice's process receives, the handovers planned from the last slice to the first, the
// segments handed from the first to the last, and the replay slice after slice.
#pragma once

#include <memory>
#include <vector>

#include "divided_trace.h"
#include "sliced_replay.h"

namespace collwrap {

struct PlayedJob {
  std::vector<LocationRange> shares;
  std::unique_ptr<DividedTrace> divided;  // every process's partial trace and matching
  std::vector<GraphRows> rows;            // every process's rows of its locations
  WholeTraceFacts facts;
  SliceCuts cuts;
  bool refused = false;
  std::vector<std::vector<std::uint32_t>> handed;  // into each slice
  std::vector<ReplaySlice> slices;
};

// The traces the steps in slices are tested on: the divided analysis's, and the root-cause
// tests' runs (a 5 s segment among them).
std::vector<Trace> sliced_test_traces();

// The job of `shares.size()` processes, one slice each, up to its replay as `options` asks;
// cut at `cut_at` when given, else where the samples of the Leaves say.
PlayedJob play_job(const Trace& whole, const std::vector<LocationRange>& shares, Digests digests,
                   const ReplayOptions& options, const std::vector<TimeNs>* cut_at = nullptr);

}  // namespace collwrap
