// MPITEST's timing arithmetic (the MPITEST description, "Efficiency test of the basic MPI
// operations"), free of MPI. Every figure is taken as
//     barrier, t1, operation, barrier, t2
// and corrected for the cost of reading the clock (DT) and of the closing barrier (DB):
//     DT = t2 − t1 of two consecutive clock reads,
//     DB = t2 − t1 − DT of  barrier, t1, barrier, t2,
//     t  = t2 − t1 − DT − DB,
// each averaged over the iterations of a measurement.
#pragma once

#include <cstddef>
#include <span>

namespace collwrap::bench {

double clock_read_cost(double t1, double t2);
double barrier_cost(double t1, double t2, double clock_read);
double corrected_time(double t1, double t2, double clock_read, double barrier);

// The figure reported for one operation and size over MPITEST's R repeats of the whole test:
// the mean of the repeats' averages, and their spread.
struct OpsFigure {
  double mean_us = 0, min_us = 0, max_us = 0;
};
OpsFigure combine_repeats(std::span<const double> repeat_means_us);

}  // namespace collwrap::bench
