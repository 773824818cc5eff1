// Compute grains: what a rank does between two MPI calls. Bartenev et al.
// (RFNC-VNIIEF, Noise Measurement Suite) call a program's steps
// between synchronizations its grains; machine noise lengthens each grain, and the shorter the
// grains, the more often a burst on one rank makes all the others wait.
//
// A grain of a location is the interval from the Leave of one MPI call to the Enter of its
// next call on the same location (rank and thread).
//
// With a noise file of `collwrap-bench noise`, predict_noise_waiting() estimates how much of
// the waiting the patterns found the measured noise explains. For every grain of every
// location it takes formula (1)'s expected waiting for a grain of that length
// (noise::expected_grain_wait: the expected delay by the slowest of p ranks minus the rank's
// own expected delay) and sums it: rank-seconds of waiting, like the patterns' totals.
// Assumptions:
//   - every grain ends in a synchronization of all p ranks of the trace (as in the paper's
//     model); a grain that ends in a message to one neighbour waits for fewer ranks, so for
//     such programs the estimate is too high;
//   - the noise while the program ran is the noise of the collection (same machine, same
//     load), stationary in time and independent of the program;
//   - a grain longer than a band's mean gap meets one burst of the band per whole gap on every
//     rank (formula (1)'s extension, noise_prediction.h), so the ranks differ only in the
//     remainder: for long grains under frequent noise the estimate is too low;
//   - with more ranks in the trace than in the noise file, the synchronicity measured over the
//     file's ranks is used, which underestimates asynchronous noise on more ranks.
// The observed waiting is the sum of the pattern totals of the patterns that count separately
// (catalog.h: without those that are part of another, can include another's time, or are
// no waiting).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analysis_result.h"
#include "noise_file.h"
#include "trace_model.h"

namespace collwrap {

// The grain lengths of one location, in order, in seconds (overlapping calls give none).
std::vector<double> grain_lengths(const Location& location);

// Histogram bin edges: 0, 1 µs, 10 µs, …, 10 s, then unbounded.
std::vector<GrainBin> grain_histogram(std::span<const double> grains_s);

// One entry per location with at least one grain, by rank then thread; only of the locations
// `at` (processes that divide a trace each give theirs, in location order).
std::vector<GrainDistribution> compute_grains(const Trace& trace, const LocationRange& at = {});

// The waiting of the patterns, counting each wait once (see above).
double observed_waiting_s(const Summary& summary);

// The noise file's figures the prediction reads, for a trace of `world_size` processes.
struct NoiseModel {
  NoisePrediction figures;  // the noise file's and the trace's processes, nothing else yet
  std::vector<noise::BandMetrics> bands;
};
NoiseModel noise_model(const noise::NoiseRecord& noise, const std::string& file,
                       std::int32_t world_size);

// One location's grains under the model, summed in order.
struct GrainNoise {
  std::uint64_t grains = 0;
  double compute_s = 0;
  double delay_s = 0;
  double wait_s = 0;
};
// One entry per location of `at`, in order (processes that divide a trace each give theirs).
std::vector<GrainNoise> grain_noise(const Trace& trace, const NoiseModel& model,
                                    const LocationRange& at = {});

// The prediction from every location's grains, added location by location, so that the sum
// is the same however the locations were divided.
NoisePrediction predict_noise_waiting(const NoiseModel& model,
                                      std::span<const GrainNoise> locations,
                                      const Summary& summary);
// Both steps over the whole trace.
NoisePrediction predict_noise_waiting(const Trace& trace, const Summary& summary,
                                      const noise::NoiseRecord& noise, const std::string& file);

}  // namespace collwrap
