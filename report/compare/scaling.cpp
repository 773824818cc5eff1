#include "scaling.h"

#include <algorithm>

namespace collwrap {

std::optional<ScalingPoint> scaling_point(const ComparedRun& run) {
  if (!run.result.causes || run.result.causes->pop.ranks.empty()) return std::nullopt;
  const PopEfficiencies& pop = run.result.causes->pop;
  ScalingPoint p{.label = run.label,
                 .ranks = run.result.trace.world_size,
                 .runtime_s = pop.runtime_s,
                 .parallel_efficiency = pop.parallel_efficiency,
                 .load_balance = pop.load_balance,
                 .communication_efficiency = pop.communication_efficiency};
  for (const PopRank& r : pop.ranks) p.total_useful_s += r.useful_s;
  return p;
}

std::vector<ScalingRow> scaling_rows(std::vector<ScalingPoint> points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const ScalingPoint& a, const ScalingPoint& b) { return a.ranks < b.ranks; });
  std::vector<ScalingRow> rows;
  if (points.empty()) return rows;
  const ScalingPoint& ref = points.front();
  const auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  for (const ScalingPoint& p : points) {
    ScalingRow row{.point = p,
                   .speedup = ratio(ref.runtime_s, p.runtime_s),
                   .ideal_speedup = ratio(p.ranks, ref.ranks),
                   .computational_scaling = ratio(ref.total_useful_s, p.total_useful_s)};
    row.global_efficiency = p.parallel_efficiency * row.computational_scaling;
    rows.push_back(row);
  }
  return rows;
}

ScalingStudy scaling_study(std::span<const ComparedRun> runs) {
  ScalingStudy study;
  std::vector<ScalingPoint> points;
  for (const ComparedRun& run : runs) {
    if (run.result.trace.program != runs.front().result.trace.program) {
      study.not_compared.push_back(run.label + ": another program (" + run.result.trace.program +
                                   ", not " + runs.front().result.trace.program + ")");
    } else if (std::optional<ScalingPoint> p = scaling_point(run)) {
      points.push_back(*p);
    } else {
      study.not_compared.push_back(run.label + ": no POP efficiencies (analyzed with --no-causes)");
    }
  }
  study.rows = scaling_rows(std::move(points));
  return study;
}

}  // namespace collwrap
