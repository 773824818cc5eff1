#include "pop_efficiency.h"

#include <algorithm>
#include <limits>

#include "result_units.h"

namespace collwrap {
namespace {

// The region of interest of one location in global call ids: it starts at the Leave of
// `begin_call` (kNone: at the trace's start) and ends at the Enter of `end_call` (kNone: at the
// Leave of the last call).
struct Region {
  std::uint32_t begin_call = kNone;
  std::uint32_t end_call = kNone;
};

Region region_of(const Trace& trace, const ReplayGraph& graph, std::uint32_t loc) {
  const Location& l = trace.locations[loc];
  Region r;
  for (std::uint32_t i = 0; i < l.calls(); ++i) {
    const RegionClass cls = trace.regions[l.call_region[i]].cls;
    if (cls == RegionClass::Init && r.begin_call == kNone) r.begin_call = graph.global(loc, i);
    if (cls == RegionClass::Finalize) r.end_call = graph.global(loc, i);
  }
  return r;
}

struct Span {
  TimeNs begin = 0, end = 0, useful = 0;
};

Span measure(const Trace& trace, const ReplayGraph& graph, std::uint32_t loc, Region r,
             const ReplayTimes& times) {
  const std::uint32_t first = graph.loc_first_call[loc], last = graph.loc_first_call[loc + 1];
  Span s;
  s.begin = r.begin_call == kNone ? trace.begin : times.leave[r.begin_call];
  s.end = r.end_call == kNone ? times.leave[last - 1] : times.enter[r.end_call];
  const std::uint32_t from = r.begin_call == kNone ? first : r.begin_call + 1;
  const std::uint32_t to = r.end_call == kNone ? last : r.end_call + 1;
  for (std::uint32_t g = from; g < to; ++g)
    s.useful += times.enter[g] - (g == first ? trace.begin : times.leave[g - 1]);
  return s;
}

double ratio(double a, double b) {
  return b > 0 ? a / b : 1.0;
}

}  // namespace

PopEfficiencies pop_efficiencies(const Trace& trace, const ReplayGraph& graph,
                                 const ReplayTimes& recorded, const ReplayTimes& ideal) {
  PopEfficiencies pop;
  pop.region = "MPI_Init..MPI_Finalize";
  TimeNs begin = std::numeric_limits<TimeNs>::max(), end = std::numeric_limits<TimeNs>::min();
  TimeNs ideal_begin = begin, ideal_end = end;
  double useful_sum = 0;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    if (l.thread != 0 || l.calls() == 0) continue;
    const Region r = region_of(trace, graph, loc);
    const Span s = measure(trace, graph, loc, r, recorded);
    const Span i = measure(trace, graph, loc, r, ideal);
    begin = std::min(begin, s.begin), end = std::max(end, s.end);
    ideal_begin = std::min(ideal_begin, i.begin), ideal_end = std::max(ideal_end, i.end);
    PopRank rank;
    rank.rank = l.rank;
    rank.useful_s = seconds(s.useful);
    rank.mpi_s = seconds(s.end - s.begin - s.useful);
    pop.ranks.push_back(rank);
    useful_sum += rank.useful_s;
    pop.max_useful_s = std::max(pop.max_useful_s, rank.useful_s);
  }
  if (pop.ranks.empty()) return pop;
  pop.runtime_s = seconds(end - begin);
  pop.ideal_runtime_s = seconds(ideal_end - ideal_begin);
  pop.mean_useful_s = useful_sum / static_cast<double>(pop.ranks.size());
  pop.load_balance = ratio(pop.mean_useful_s, pop.max_useful_s);
  pop.communication_efficiency = ratio(pop.max_useful_s, pop.runtime_s);
  pop.serialization_efficiency = ratio(pop.max_useful_s, pop.ideal_runtime_s);
  pop.transfer_efficiency = ratio(pop.ideal_runtime_s, pop.runtime_s);
  pop.parallel_efficiency = pop.load_balance * pop.communication_efficiency;
  return pop;
}

}  // namespace collwrap
