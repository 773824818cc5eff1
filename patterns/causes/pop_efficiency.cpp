#include "pop_efficiency.h"

#include <algorithm>
#include <limits>

#include "result_units.h"

namespace collwrap {
namespace {

// One interval of the region of interest on a location, in global call ids: it starts at the
// Leave of `begin_call` (kNone: at the trace's start) and ends at the Enter of `end_call`
// (kNone: at the Leave of the last call).
struct Interval {
  std::uint32_t begin_call = kNone;
  std::uint32_t end_call = kNone;
};

// MPI_Init's Leave to MPI_Finalize's Enter.
Interval init_to_finalize(const Trace& trace, const ReplayGraph& graph, std::uint32_t loc) {
  const Location& l = trace.locations[loc];
  Interval r;
  for (std::uint32_t i = 0; i < l.calls(); ++i) {
    const RegionClass cls = trace.regions[l.call_region[i]].cls;
    if (cls == RegionClass::Init && r.begin_call == kNone) r.begin_call = graph.global(loc, i);
    if (cls == RegionClass::Finalize) r.end_call = graph.global(loc, i);
  }
  return r;
}

// The MPI_Pcontrol intervals: each from the Leave of a call that switches profiling on
// (level ≠ 0 while off) to the Enter of the next MPI_Pcontrol(0); one still on at the end
// closes at MPI_Finalize's Enter. Repeated calls at the same state change nothing.
std::vector<Interval> pcontrol_intervals(const Trace& trace, const ReplayGraph& graph,
                                         std::uint32_t loc) {
  const Location& l = trace.locations[loc];
  std::vector<Interval> intervals;
  bool on = false;
  for (const PcontrolCall& p : l.pcontrol) {
    if (!on && p.level != 0) intervals.push_back({graph.global(loc, p.call), kNone});
    if (on && p.level == 0) intervals.back().end_call = graph.global(loc, p.call);
    on = p.level != 0;
  }
  if (on) intervals.back().end_call = init_to_finalize(trace, graph, loc).end_call;
  return intervals;
}

struct Span {
  TimeNs begin = 0, end = 0, useful = 0;
};

Span measure(const Trace& trace, const ReplayGraph& graph, std::uint32_t loc, Interval r,
             const ReplayTimes& times) {
  const std::uint32_t first = graph.loc_first_call[loc], last = graph.loc_first_call[loc + 1];
  Span s;
  s.begin = r.begin_call == kNone ? trace.begin : times.leave(r.begin_call);
  s.end = r.end_call == kNone ? times.leave(last - 1) : times.enter[r.end_call];
  const std::uint32_t from = r.begin_call == kNone ? first : r.begin_call + 1;
  const std::uint32_t to = r.end_call == kNone ? last : r.end_call + 1;
  for (std::uint32_t g = from; g < to; ++g) s.useful += graph.segment(g);
  return s;
}

// The k-th interval over all ranks: earliest begin to latest end.
struct GlobalSpan {
  TimeNs begin = std::numeric_limits<TimeNs>::max();
  TimeNs end = std::numeric_limits<TimeNs>::min();
  void add(const Span& s) { begin = std::min(begin, s.begin), end = std::max(end, s.end); }
};

TimeNs total_length(const std::vector<GlobalSpan>& spans) {
  TimeNs sum = 0;
  for (const GlobalSpan& g : spans) sum += g.end - g.begin;
  return sum;
}

double ratio(double a, double b) {
  return b > 0 ? a / b : 1.0;
}

}  // namespace

PopEfficiencies pop_efficiencies(const Trace& trace, const ReplayGraph& graph,
                                 const ReplayTimes& recorded, const ReplayTimes& ideal) {
  PopEfficiencies pop;
  const auto main_thread = [&](std::uint32_t loc) {
    return trace.locations[loc].thread == 0 && trace.locations[loc].calls() > 0;
  };
  std::vector<std::vector<Interval>> intervals(trace.locations.size());
  bool pcontrol = false;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    if (!main_thread(loc)) continue;
    intervals[loc] = pcontrol_intervals(trace, graph, loc);
    pcontrol = pcontrol || !intervals[loc].empty();
  }
  pop.region = pcontrol ? "MPI_Pcontrol" : "MPI_Init..MPI_Finalize";
  // A rank that never switches profiling on is measured from MPI_Init to MPI_Finalize only
  // when no rank calls MPI_Pcontrol; otherwise it has no region of interest (no useful time).
  std::vector<GlobalSpan> spans, ideal_spans;
  double useful_sum = 0;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    if (!main_thread(loc)) continue;
    if (!pcontrol) intervals[loc] = {init_to_finalize(trace, graph, loc)};
    spans.resize(std::max(spans.size(), intervals[loc].size()));
    ideal_spans.resize(spans.size());
    PopRank rank;
    rank.rank = trace.locations[loc].rank;
    for (std::size_t k = 0; k < intervals[loc].size(); ++k) {
      const Span s = measure(trace, graph, loc, intervals[loc][k], recorded);
      spans[k].add(s);
      ideal_spans[k].add(measure(trace, graph, loc, intervals[loc][k], ideal));
      rank.useful_s += seconds(s.useful);
      rank.mpi_s += seconds(s.end - s.begin - s.useful);
    }
    pop.ranks.push_back(rank);
    useful_sum += rank.useful_s;
    pop.max_useful_s = std::max(pop.max_useful_s, rank.useful_s);
  }
  if (pop.ranks.empty()) return pop;
  pop.runtime_s = seconds(total_length(spans));
  pop.ideal_runtime_s = seconds(total_length(ideal_spans));
  pop.mean_useful_s = useful_sum / static_cast<double>(pop.ranks.size());
  pop.load_balance = ratio(pop.mean_useful_s, pop.max_useful_s);
  pop.communication_efficiency = ratio(pop.max_useful_s, pop.runtime_s);
  pop.serialization_efficiency = ratio(pop.max_useful_s, pop.ideal_runtime_s);
  pop.transfer_efficiency = ratio(pop.ideal_runtime_s, pop.runtime_s);
  pop.parallel_efficiency = pop.load_balance * pop.communication_efficiency;
  return pop;
}

}  // namespace collwrap
