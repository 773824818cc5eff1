// The measurements of `collwrap-bench matrix`: the exchanges of each mode, timed with
// MPI_Wtime as network_test does. Every rank of the communicator calls measure_length.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "matrix_options.h"
#include "matrix_schedule.h"
#include "matrix_statistics.h"

namespace collwrap::bench {

// Measures one message length: every pair (one at a time, or all at once in all_to_all),
// `options.repeats` timed exchanges each after one untimed warm-up exchange. In the noise modes
// `noise_ranks` ranks drawn from `chooser` exchange in the background of each pair. Returns the
// delays this rank timed.
PeerSamples measure_length(const MatrixOptions& options, std::size_t length, int noise_ranks,
                           NoiseRankChooser& chooser, MPI_Comm comm);

}  // namespace collwrap::bench
