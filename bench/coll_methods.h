// The three ways `collwrap-bench coll` times a collective (--method):
//   window:  MPIPerf's synchronized starts; run l of stage j starts at T_j + l·δ_j by the global
//            clock on every rank, invalid runs are dropped, a run's time is the max over ranks
//            of (end − scheduled start).
//   barrier: MPI_Barrier before each run, each rank times its own call, max over ranks (IMB's
//            t_max). Ranks leave a barrier at different times, so the early ones also time
//            their wait for the late ones.
//   naive:   back-to-back calls after one barrier, their mean duration on rank 0 (OSU-style
//            loops). A rank may start the next call while others still work on the previous
//            one, and rank 0 alone may finish early or late.
// All three share warm-up (not counted), the stopping rule, trimming and statistics.
#pragma once

#include <cstdint>
#include <vector>

#include "clock/global_clock.h"
#include "coll_collectives.h"
#include "coll_statistics.h"
#include "coll_window.h"

namespace collwrap::bench {

enum class CollMethod { Window, Barrier, Naive };

struct CollSettings {
  CollMethod method = CollMethod::Window;
  WindowParameters window;
  StoppingRule stopping;
  double trim_fraction = 0.25;  // q'
  double confidence = 0.95;
  int naive_iterations = 10;  // calls per naive run
  double inject_us = 0;       // the last rank waits this long in each run before the call
};

struct CollMeasurement {  // meaningful on rank 0
  CollStatistics statistics;
  std::vector<double> per_rank_us;  // each rank's mean time over the valid runs
  double window_us = 0;             // the final δ (window method)
};

// How far ahead of now rank 0 announces a stage's start, so that the broadcast reaches every
// rank in time: twice the slowest of a few timestamp broadcasts. Collective; rank 0's value
// counts.
std::int64_t stage_start_lead(const tracer::GlobalClock& clock, MPI_Comm comm);

// Collective over call.comm.
CollMeasurement measure_collective(const tracer::GlobalClock& clock, std::int64_t lead,
                                   const Collective& collective, CollCall& call,
                                   const CollSettings& settings);

}  // namespace collwrap::bench
