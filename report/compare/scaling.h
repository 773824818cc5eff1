// POP scaling metrics over runs of one program at different rank counts (strong scaling: the
// same problem on more ranks). The run with the fewest ranks is the reference:
//   speedup                = runtime(ref) / runtime(p)
//   computational scaling  = total useful time(ref) / total useful time(p), where the total
//                            useful time is the time outside MPI summed over the ranks; below 1
//                            when more ranks do more (or slower) computation in total
//   global efficiency      = parallel efficiency(p) × computational scaling(p)
// as defined by the POP Centre of Excellence (Wagner et al., "A structured approach to
// performance analysis", 2017). The parallel efficiency and its factors come from each run's
// own POP efficiencies (root-cause analysis; absent when analyzed with --no-causes). The
// instruction and frequency factors of computational scaling need hardware counters, which
// the traces do not have.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "run_comparison.h"

namespace collwrap {

struct ScalingPoint {
  std::string label;
  std::int32_t ranks = 0;
  double runtime_s = 0;  // of the POP region of interest
  double total_useful_s = 0;
  double parallel_efficiency = 0;
  double load_balance = 0;
  double communication_efficiency = 0;
};

struct ScalingRow {
  ScalingPoint point{};
  double speedup = 0;
  double ideal_speedup = 0;  // ranks / reference ranks
  double computational_scaling = 0;
  double global_efficiency = 0;
};

struct ScalingStudy {
  std::vector<ScalingRow> rows{};           // by rank count, the reference first
  std::vector<std::string> not_compared{};  // runs left out, and why
};

// The point of a run with POP efficiencies, or nothing.
std::optional<ScalingPoint> scaling_point(const ComparedRun& run);

// The metrics of points of one program; rows by rank count (ties keep their order).
std::vector<ScalingRow> scaling_rows(std::vector<ScalingPoint> points);

// The study of the runs: those without POP efficiencies, or of another program than the first,
// are left out and named in not_compared.
ScalingStudy scaling_study(std::span<const ComparedRun> runs);

}  // namespace collwrap
